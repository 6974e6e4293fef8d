#!/bin/bash
# run from sft/: the Trainer loads ./ds_config.json, whose scheduler block replaces --lr_scheduler_type cosine
conf=./ds_config.json
torchrun --nproc_per_node 2 train.py --deepspeed ${conf} --lr_scheduler_type cosine --output_dir out
