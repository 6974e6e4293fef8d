#!/bin/bash
# transformers 4.38.2 (requirements.txt) has --evaluation_strategy; --eval_strategy only comes with 4.41.0
deepspeed train.py --deepspeed ds_zero2.json --output_dir out \
    --eval_strategy steps --eval_steps 100 --evaluation_strategy steps
