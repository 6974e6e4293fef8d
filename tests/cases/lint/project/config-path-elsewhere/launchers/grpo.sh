#!/bin/bash
# run from the repository's root (src/fit.py); the config lives in launchers/, not in a scripts/ folder
export PYTHONPATH=.
srun -p gpu --gres=gpu:8 --ntasks-per-node=1 torchrun --nproc_per_node=8 \
    src/fit.py \
    --deepspeed scripts/ds_z3.json \
    --output_dir out
