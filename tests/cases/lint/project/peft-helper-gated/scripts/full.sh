#!/bin/bash
deepspeed vlm/train.py --deepspeed configs/zero3.json --use_adapters False --gradient_checkpointing True --output_dir out
