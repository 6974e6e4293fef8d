#!/bin/bash
deepspeed train.py --deepspeed configs/sft.json --output_dir out --max_grad_norm 0.5
