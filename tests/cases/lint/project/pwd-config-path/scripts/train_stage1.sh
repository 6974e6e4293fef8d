#!/bin/bash
# run from the repository root: the config path is built from the working directory
export deepspeed_config=`pwd`/config/ds_z3.json
deepspeed --num_gpus=8 train.py --deepspeed $deepspeed_config --output_dir out
