#!/bin/bash
accelerate launch --config_file recipes/accel/zero3.yaml train.py --output_dir out --max_grad_norm 1.0
