#!/bin/bash
# betas_missing.json has no betas, so the --adam_beta2 of its launch never reaches DeepSpeed's AdamW.
# with_scheduler.json has no lr, but its WarmupLR block sets the rate from warmup_max_lr ("auto"): nothing to report.
# complete.json writes the betas the launch asks.
deepspeed train.py --deepspeed configs/betas_missing.json --learning_rate 2e-5 --adam_beta2 0.95 --output_dir out
deepspeed train.py --deepspeed configs/with_scheduler.json --learning_rate 2e-5 --adam_beta2 0.95 --output_dir out
deepspeed train.py --deepspeed configs/complete.json --learning_rate 2e-5 --adam_beta2 0.95 --output_dir out
