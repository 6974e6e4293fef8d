#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed ds_zero3.json --output_dir out
