#!/bin/bash
deepspeed train.py --deepspeed scripts/zero2.json --do_train True --output_dir out
