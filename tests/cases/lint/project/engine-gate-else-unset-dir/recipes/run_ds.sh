#!/bin/bash
train_engine=deepspeed
torchrun --nproc_per_node 8 $WORK_DIR/mytts/bin/train.py \
    --train_engine $train_engine \
    --deepspeed_config ./conf/ds_stage2.json
