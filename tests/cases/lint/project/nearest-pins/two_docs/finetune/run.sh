#!/bin/bash
deepspeed --num_gpus 2 train.py --deepspeed ds.json --output_dir out
