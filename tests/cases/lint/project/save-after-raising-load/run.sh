#!/bin/bash
torchrun --nproc_per_node 4 unlearn.py --ckpt runs/full-finetune --out runs/unlearned
