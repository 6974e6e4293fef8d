#!/bin/bash
# the config's micro batch 4 against --per_device_train_batch_size 8; its betas against the default adam_beta2 0.999
deepspeed --num_gpus 8 train.py --deepspeed configs/micro4.json --per_device_train_batch_size 8 --output_dir out
