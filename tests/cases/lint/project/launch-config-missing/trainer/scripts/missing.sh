#!/bin/bash
# run from the repository's root: the config was renamed, this script still names the old file
DS_CONFIG="./configs/zero3_old_name.json"
cd ./trainer
torchrun --nproc_per_node 8 train.py \
    --output_dir out \
    --deepspeed ${DS_CONFIG}
