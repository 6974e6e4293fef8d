#!/bin/bash
deepspeed train.py --deepspeed configs/ds_zero3.json --output_dir out
