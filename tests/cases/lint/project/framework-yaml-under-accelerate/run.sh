#!/bin/bash
# a fine-tuning framework's entry point reads the training YAML; the accelerate YAML names the same ds_config
accelerate launch --config_file zero2_acc.yaml train.py sft.yml --output_dir out
