#!/bin/bash
# nothing runs this one with an argument: its default config is the one it launches with
CFG=${1:-configs/deepspeed/zero3.yaml}
accelerate launch --num_processes 8 --config_file $CFG train.py
