#!/bin/bash
accelerate launch --use_deepspeed --deepspeed_config_file zero3.json sft.py --model_name_or_path gpt2 --output_dir out
