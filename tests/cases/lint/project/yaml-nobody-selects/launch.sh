#!/bin/bash
accelerate launch --config_file launch_yamls/main.yaml finetune.py --output_dir out
deepspeed finetune.py --deepspeed ds/shared.json --output_dir out_shared --max_grad_norm 1.0
