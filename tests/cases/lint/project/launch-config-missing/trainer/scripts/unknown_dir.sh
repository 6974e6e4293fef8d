#!/bin/bash
cd "$WORK_DIR"
torchrun --nproc_per_node 8 train.py --output_dir out --deepspeed ./configs/zero3_old_name.json
