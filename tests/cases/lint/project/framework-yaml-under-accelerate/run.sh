#!/bin/bash
# a fine-tuning framework's entry point reads the training YAML; the accelerate YAML names the same ds_config
accelerate launch --config_file accel_zero2.yaml train.py train_sft.yml --output_dir out
