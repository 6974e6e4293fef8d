#!/bin/bash
OUT=$1
DATA=$2
LEVEL=$3
deepspeed hf_train.py --deepspeed conf/stage$LEVEL.json --output_dir "$OUT" --data "$DATA"
