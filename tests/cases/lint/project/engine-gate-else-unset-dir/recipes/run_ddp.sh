#!/bin/bash
# WORK_DIR: the user's checkout (set outside); the DDP engine never opens the DeepSpeed config
train_engine=torch_ddp
torchrun --nproc_per_node 8 $WORK_DIR/mytts/bin/train.py \
    --train_engine $train_engine \
    --deepspeed_config ./conf/ds_ddp_unused.json
