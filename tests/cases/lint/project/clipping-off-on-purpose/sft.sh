#!/bin/bash
deepspeed train.py --deepspeed configs/sft.json --output_dir out
