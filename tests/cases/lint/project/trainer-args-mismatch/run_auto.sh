#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed configs/all_auto.json --per_device_train_batch_size 8 --output_dir out
