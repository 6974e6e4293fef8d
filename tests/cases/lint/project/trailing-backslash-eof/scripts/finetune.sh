#!/bin/bash
# the last line ends with a continuation and no newline (bash runs the command): the config is still linted
DS_CONFIG=configs/ds_z3.json

deepspeed --num_gpus 4 finetune.py \
    --model_name_or_path gpt2 \
    --deepspeed ${DS_CONFIG} \
    --output_dir out \