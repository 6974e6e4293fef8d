#!/bin/bash
# run by scripts/submit.sh on every node, with the accelerate config as its first argument
CONFIG_FILE=${1-configs/deepspeed/zero2.yaml}
accelerate launch --num_processes 8 --config_file $CONFIG_FILE train.py
