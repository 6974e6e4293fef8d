#!/usr/bin/env bash
# The blog-post recipe, with its mistakes: DS_SKIP_CUDA_CHECK must be exactly 1 (not "true"), the
# deepspeed launcher has no --export flag, and a shell-only variable never reaches other nodes
# (use .deepspeed_env). `dsdoctor check` (environment) and the lint issues flag these.
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export DS_SKIP_CUDA_CHECK=true
deepspeed --num_gpus 2 train.py --deepspeed ds_config_zero3.json
