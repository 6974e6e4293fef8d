#!/bin/bash
LAUNCH="torchrun --nproc_per_node 4"
TRAIN_ARGS="--output_dir out --deepspeed configs/ds_finetune_z3.json"

$LAUNCH finetune.py $TRAIN_ARGS
