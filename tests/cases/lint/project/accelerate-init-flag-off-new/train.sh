#!/bin/bash
accelerate launch --config_file zero3.yaml train.py --model_name Qwen/Qwen2.5-0.5B
