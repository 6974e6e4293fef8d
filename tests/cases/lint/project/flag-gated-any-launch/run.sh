#!/bin/bash
deepspeed pkg/train_mem.py --deepspeed configs/zero3.json --output_dir out --bf16 True
