#!/bin/bash
cat <<EOT > ds_config.json
{
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 8,
  "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": true}},
  "bf16": {"enabled": true}
}
EOT
deepspeed --num_gpus 8 pretrain.py --cpu-optimizer --deepspeed --deepspeed_config ds_config.json
