#!/bin/bash
# the accelerate config this launch names was never committed: accelerate stops before training
accelerate launch --config_file configs/deepspeed_zero3.yaml train.py --output_dir out --bf16 True
