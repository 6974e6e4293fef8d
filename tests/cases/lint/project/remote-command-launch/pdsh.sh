#!/bin/bash
pdsh -R ssh -w node[0-1] "cd /shared/run && torchrun --nnodes=2 --nproc_per_node=8 sft.py --deepspeed conf/z3_pdsh.json --output_dir out"
