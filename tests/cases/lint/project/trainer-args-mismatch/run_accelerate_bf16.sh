#!/bin/bash
# --bf16 replaces the YAML's mixed_precision for the config accelerate builds, and the numbers agree: accepted
accelerate launch --config_file configs/accelerate.yaml train.py --gradient_accumulation_steps 4 --max_grad_norm 0.5 --bf16 --output_dir out
