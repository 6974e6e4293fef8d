#!/bin/bash
# a framework's module, run beside its checkout: its config path goes through that checkout
accelerate launch -m finetune_framework.cli.train sft.yaml --deepspeed finetune_framework/deepspeed_configs/zero2.json
# the project's own script: its config is missing from the repository
deepspeed --num_gpus 8 train.py --deepspeed configs/zero3.json --output_dir out
