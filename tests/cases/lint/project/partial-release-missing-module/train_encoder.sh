#!/bin/bash
deepspeed pkg/train/train_encoder.py --deepspeed configs/zero3.json --output_dir out
