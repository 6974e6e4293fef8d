#!/bin/bash
# full fine-tuning on 8 GPUs
torchrun --nproc_per_node 8 train.py \
    --model meta-llama/Llama-2-7b-hf \
    --ds configs/zero3.json \
    --out runs/z3
