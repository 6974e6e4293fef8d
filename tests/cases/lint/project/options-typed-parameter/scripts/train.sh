#!/bin/bash
accelerate launch --config_file configs/zero3.yaml train.py --model_name_or_path gpt2 --use_peft False
