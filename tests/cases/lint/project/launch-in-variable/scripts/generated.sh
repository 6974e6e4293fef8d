#!/bin/bash
# the config is written here, right before the launch: the ds_config.json shipped beside it is not what runs
config_json="./ds_config.json"
ZERO_STAGE=1

cat <<EOT > $config_json
{
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 8,
  "zero_optimization": {"stage": $ZERO_STAGE},
  "bf16": {"enabled": true}
}
EOT

DS_ARGS=" \
    --deepspeed \
    --deepspeed_config ${config_json}"

deepspeed --num_gpus 8 pretrain.py $DS_ARGS
