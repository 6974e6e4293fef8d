#!/bin/bash
accelerate launch --config_file configs/accelerate.yaml train.py --gradient_accumulation_steps 4 --output_dir out
