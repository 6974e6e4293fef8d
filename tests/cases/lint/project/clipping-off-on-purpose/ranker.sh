#!/bin/bash
max_grad_norm=1e11  # a huge norm: no clipping
deepspeed train.py --deepspeed configs/ranker.json --max_grad_norm ${max_grad_norm} --output_dir out
