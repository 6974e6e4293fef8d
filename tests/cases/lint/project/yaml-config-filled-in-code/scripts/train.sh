#!/bin/bash
# bash scripts/train.sh main.py configs/train.yaml
script_path=${1}
config_path=${2}
NGPU=8
torchrun --nnodes=1 \
    --nproc_per_node=$NGPU \
    $script_path \
    --config_file $config_path
