#!/bin/bash
accelerate launch --config_file launch_yamls/main.yaml finetune.py --output_dir out
deepspeed finetune.py --deepspeed ds/shared.json --output_dir out_shared
