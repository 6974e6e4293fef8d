#!/bin/bash
accelerate launch --config_file zero3.yaml train.py --output_dir out
