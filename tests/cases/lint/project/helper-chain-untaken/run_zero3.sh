#!/bin/bash
# ZeRO-3 training; the evaluation helpers are imported for one formatting function only
deepspeed --num_gpus 8 tuner/train.py --deepspeed configs/zero3.json --output_dir out
