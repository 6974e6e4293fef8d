#!/bin/bash
# run from the directory above the checkout
PROJ_PATH='hydra-plugin-yaml'
torchrun --nproc_per_node=8 ${PROJ_PATH}/train.py \
    --deepspeed_plugin ${PROJ_PATH}/configs/ds_stage3.yaml
