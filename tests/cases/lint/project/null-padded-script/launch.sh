#!/bin/bash
deepspeed --num_gpus 4 finetune.py --deepspeed ds/z3.json --output_dir ckpt
python tools/stats.py ckpt
