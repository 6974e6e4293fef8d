#!/bin/bash
deepspeed train.py \
    --deepspeed ./configs/zero3.json \
    --output_dir ./checkpoints/stage2
