#!/bin/bash
GPUS_PER_NODE=8
TP=4
PP=2
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes 1 pretrain_gpt.py \
    --tensor-model-parallel-size $TP \
    --pipeline-model-parallel-size $PP \
    --micro-batch-size 4 --global-batch-size 16 \
    --deepspeed --deepspeed_config examples/ds_tp4_pp2.json
