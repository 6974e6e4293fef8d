#!/bin/bash
deepspeed --num_gpus 2 sft.py --deepspeed ds_zero2.json --output_dir out --fp16 true
