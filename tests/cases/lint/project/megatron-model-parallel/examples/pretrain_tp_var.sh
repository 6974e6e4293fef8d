#!/bin/bash
deepspeed --num_gpus 8 pretrain_gpt.py \
    --tensor-model-parallel-size ${TP_SIZE} \
    --deepspeed --deepspeed_config examples/ds_tp_var.json
