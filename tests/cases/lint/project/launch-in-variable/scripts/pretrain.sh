#!/bin/bash
# Megatron-style: the options are built in quoted variables over several lines, the launch is run by eval
NUM_LAYERS=24
config_json="configs/ds_pretrain.json"

model_options=" \
    --num-layers ${NUM_LAYERS} \
    --hidden-size 1024 \
    --seq-length 2048"

deepspeed_options=" \
    --deepspeed \
    --deepspeed_config ${config_json}"

run_cmd="deepspeed --num_gpus 8 pretrain.py ${model_options} ${deepspeed_options} &>> pretrain.log"
echo ${run_cmd}
eval ${run_cmd}
