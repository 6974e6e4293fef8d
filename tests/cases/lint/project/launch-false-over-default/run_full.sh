#!/bin/bash
deepspeed --num_gpus 8 run_clm.py \
    --deepspeed ds_zero3.json \
    --model_name_or_path gpt2 \
    --use_low_cpu_mem False \
    --output_dir out
