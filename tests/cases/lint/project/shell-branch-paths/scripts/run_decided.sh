#!/bin/bash
# lora_enabled is set here, before the branch: the ZeRO-3 branch is dead
lora_enabled=true
if [[ $lora_enabled == true ]]; then
    config=configs/zero2.json
else
    config=configs/zero3.json
fi
deepspeed --num_gpus 8 decided.py --deepspeed $config --use_qlora true
