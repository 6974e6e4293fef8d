#!/bin/bash
# --use_lora is passed, --use_q_lora is not: GPTQ (use_lora and use_q_lora) is never loaded
deepspeed --num_gpus 8 train.py --deepspeed configs/zero3.json --load_bits 16 --use_lora --cache_mode local
