#!/bin/bash
# --size comes from the caller: one project file matches the entry's pattern
deepspeed --num_gpus 2 train_glob.py --size "$1"
