#!/bin/bash
# full fine-tuning under ZeRO-3; the adapter merge (--merge_after) is never asked for here
deepspeed --num_gpus 8 tuner/train.py --deepspeed configs/zero3.json --output_dir out
