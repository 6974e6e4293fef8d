#!/bin/bash
torchrun --nproc_per_node 8 sft.py --deepspeed configs/zero3.json --output_dir out
