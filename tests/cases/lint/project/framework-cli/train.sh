#!/bin/bash
# A fine-tuning framework's own command line (no Python entry of this project) handed the ds_config: it loads it
# as the HF Trainer's --deepspeed does
echo "usage: --deepspeed configs/shown.json"
sft-trainer-cli train \
    --model_name_or_path gpt2 \
    --bf16 true \
    --deepspeed configs/zero3.json \
    --output_dir out
