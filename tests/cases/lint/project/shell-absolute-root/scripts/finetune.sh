#!/bin/bash
# The writer's own checkout, which is not where a clone lands: the paths under it are the project's files by their tail
PROJECT_HOME=/data/someone/git/shell-absolute-root
DS_CONFIG=$PROJECT_HOME/configs/ds_z3.json

deepspeed --num_gpus 4 $PROJECT_HOME/finetune.py \
    --deepspeed ${DS_CONFIG} \
    --output_dir out
