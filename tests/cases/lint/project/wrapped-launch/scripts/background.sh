#!/bin/bash
nohup deepspeed --num_gpus 4 finetune.py --deepspeed configs/zero3_bg.json --output_dir out/bg > train.log 2>&1 &
