#!/bin/bash
accelerate launch --mixed_precision bf16 --num_processes 4 --use_deepspeed \
    --deepspeed_config_file ../shared_cfg/stage3.conf \
    ./finetune.py --model_name_or_path gpt2 --output_dir out
