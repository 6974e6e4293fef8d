#!/bin/bash
cd ./trainer
torchrun --nproc_per_node 8 train.py --output_dir out --deepspeed ./configs/zero2.json
