#!/bin/bash
deepspeed train.py --deepspeed z3.json --output_dir out
