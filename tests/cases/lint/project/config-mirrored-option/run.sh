#!/bin/bash
deepspeed train.py --deepspeed configs/zero3.json --aux_tower True --output_dir out
