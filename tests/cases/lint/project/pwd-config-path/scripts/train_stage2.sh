#!/bin/bash
DS_CONFIG="$(pwd)/config/ds_z3.json"
deepspeed --num_gpus=8 train.py --deepspeed "$DS_CONFIG" --output_dir out2
