#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed configs/zero2.json --train_mode qlora --output_dir out
