#!/bin/bash
deepspeed --num_gpus 2 train.py --deepspeed ds.json
python tools/summary.py results.json
