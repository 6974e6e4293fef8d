#!/bin/bash
accelerate launch --config_file configs/deepspeed_zero2.yaml --num_processes 2 train.py --output_dir out
