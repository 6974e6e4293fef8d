#!/bin/bash
deepspeed train.py --deepspeed configs/plain.json --output_dir out_plain
