#!/bin/bash
accelerate launch --multi_gpu --mixed_precision bf16 --num_processes 4 train.py --batch_size 32
