#!/bin/bash
torchrun --nproc_per_node 2 train.py --output_dir out --bf16 True
