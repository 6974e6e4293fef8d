#!/bin/bash
deepspeed train.py \
    --deepspeed ./LLaVA/scripts/zero3.json \
    --output_dir ./checkpoints/stage1
