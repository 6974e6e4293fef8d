#!/bin/bash
deepspeed train.py --zero_stage 3 --method plain --output_dir out/plain
deepspeed train.py --zero_stage 2 --method replay --output_dir out/replay
