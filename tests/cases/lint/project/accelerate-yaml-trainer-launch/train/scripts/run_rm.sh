#!/bin/bash
# run from train/: the YAML names its config from there
accelerate launch --config_file configs/accelerate_rm.yaml --num_processes 8 src/rm_train.py \
    --model_name gpt2 --learning_rate 1e-5 --gradient_accumulation_steps 8
