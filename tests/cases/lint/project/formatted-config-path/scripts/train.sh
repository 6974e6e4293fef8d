#!/bin/bash
# run from the project's root: the entry builds its config path from --model and --stage
deepspeed --include localhost:0,1 train.py \
    --model small \
    --stage 1 \
    --save_path ./ckpt/
