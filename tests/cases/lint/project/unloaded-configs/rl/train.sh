#!/bin/bash
deepspeed --num_gpus 2 grpo.py --deepspeed ds_zero2.json --output_dir out
