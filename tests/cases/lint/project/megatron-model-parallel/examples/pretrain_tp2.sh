#!/bin/bash
deepspeed --num_gpus 8 pretrain_gpt.py \
    --tensor-model-parallel-size 2 \
    --deepspeed --deepspeed_config examples/ds_tp2.json
