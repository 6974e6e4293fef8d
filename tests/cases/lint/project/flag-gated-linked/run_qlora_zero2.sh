#!/bin/bash
deepspeed --num_gpus 8 finetune.py --deepspeed configs/zero2.json --q_lora
deepspeed --num_gpus 8 finetune_literal.py --deepspeed configs/zero2.json --q_lora
