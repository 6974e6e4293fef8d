#!/bin/bash
# run from bash/: the paths go up to the checkout's parent and back in through the checkout's own name
parent_dir=../..
deepspeed ${parent_dir}/launch-through-checkout-parent/train.py \
    --deepspeed ${parent_dir}/launch-through-checkout-parent/deepspeed/zero3.json \
    --output_dir out
