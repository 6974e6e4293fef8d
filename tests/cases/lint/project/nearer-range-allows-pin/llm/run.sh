#!/bin/bash
deepspeed trainer/train.py --deepspeed ds.json --output_dir out
