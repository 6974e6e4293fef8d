#!/bin/bash
LR=1e-4
NAME="gpt-125M-lr-${LR}"
config_json="ds_config_${NAME}.json"
sed "s/CONFIG_LR/${LR}/" ds_config_TEMPLATE.json \
    > ${config_json}
deepspeed pretrain_gpt.py --deepspeed --deepspeed_config ${config_json}
