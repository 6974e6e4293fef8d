#!/bin/bash
deepspeed train.py \
    --deepspeed "$finetune_deepspeed" \
    --learning_rate $finetune_lr \
    --lr_scheduler_type cosine \
    --output_dir "${base_dir}out"
