#!/bin/bash
MODEL=gpt2
DS_CONFIG=configs/ds_z3.json
NUM_GPUS=4

deepspeed --num_gpus ${NUM_GPUS} finetune.py \
    --model_name_or_path $MODEL \
    --deepspeed ${DS_CONFIG} \
    --output_dir out
