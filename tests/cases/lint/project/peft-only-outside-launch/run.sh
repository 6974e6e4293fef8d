#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed z3.json --output_dir out
