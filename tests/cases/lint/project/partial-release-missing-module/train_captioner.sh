#!/bin/bash
deepspeed pkg/train/train_captioner.py --deepspeed configs/zero3.json --output_dir out
