#!/bin/bash
NNODES=2
srun --nodes=$NNODES --ntasks-per-node=1 \
    bash -c 'torchrun --nnodes $NNODES --nproc_per_node 8 --node_rank $SLURM_NODEID pretrain.py \
    --model_name_or_path gpt2 \
    --deepspeed ./configs/zero2.json \
    --output_dir out/pretrain'
