#!/bin/bash
deepspeed train_lenient.py --deepspeed ds_zero2.json --output_dir out --eval_strategy steps
