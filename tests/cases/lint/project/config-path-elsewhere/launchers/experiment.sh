#!/bin/bash
# the README runs this from experiment/: cfg/zero3.json is there
torchrun --nproc_per_node=8 ../src/fit.py --deepspeed cfg/zero3.json --output_dir out
