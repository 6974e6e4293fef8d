#!/bin/bash
# LoRA runs (first argument "true") take the ZeRO-2 config with QLoRA on; full fine-tuning takes ZeRO-3, QLoRA off
use_lora=${1:-false}
use_qlora=false
if [ "$use_lora" = true ]; then
    use_qlora=true
    ds_config=configs/zero2.json
else
    ds_config=configs/zero3.json
fi
deepspeed --num_gpus 8 linked.py --deepspeed $ds_config --use_qlora $use_qlora
