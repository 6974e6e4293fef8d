#!/bin/bash
HERE=$(cd "$(dirname "$0")"; pwd)
MICRO=4
STAGE=3
CONFIG_JSON=$HERE/ds_generated.json
if [ "$1" = "export" ]; then
    SAVE16=true
else
    SAVE16=false
fi

# the DeepSpeed config, written where the launch reads it
cat <<EOT > $CONFIG_JSON
{
  "train_micro_batch_size_per_gpu": $MICRO,
  "gradient_accumulation_steps": $GAS,
  "zero_optimization": {
    "stage": $STAGE,
    "stage3_gather_16bit_weights_on_model_save": $SAVE16
  },
  "fp16": {"enabled": true},
  "bf16": {"enabled": true}
}
EOT

deepspeed --num_gpus 8 $HERE/../pretrain.py --deepspeed --deepspeed_config $CONFIG_JSON
