#!/bin/bash
deepspeed train.py --deepspeed z3.json --use_lora True --output_dir out
