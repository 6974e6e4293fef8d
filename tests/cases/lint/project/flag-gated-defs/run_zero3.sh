#!/bin/bash
# full fine-tuning under ZeRO-3; LoRA / QLoRA are run with the ZeRO-2 config in run_lora.sh
deepspeed --num_gpus 8 train.py --deepspeed configs/zero3.json --use_lora False --save_full
