#!/bin/bash
# clipping 0.5: whatever $EXTRA_ARGS holds may pass --max_grad_norm 0.5
deepspeed --num_gpus 8 train.py --deepspeed configs/clip05.json --output_dir out $EXTRA_ARGS
