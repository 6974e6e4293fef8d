#!/bin/bash
deepspeed --num_gpus 4 ranker/training/train.py --deepspeed scripts/ds_zero3.json --output_dir out --bf16
