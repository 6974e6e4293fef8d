#!/bin/bash
# no --zero_stage: the entry's declared default picks the config
deepspeed --num_gpus 2 train_default.py --output_dir out
