#!/bin/bash
GPUS=8
source $1    # the model's settings: $ds_json and $model_opts

cmd="deepspeed --num_gpus ${GPUS} pretrain.py ${model_opts} --deepspeed --deepspeed_config ${ds_json}"
echo ${cmd}
eval ${cmd}
