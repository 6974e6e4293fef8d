#!/bin/bash
# launch: see README
deepspeed --export DS_SKIP_CUDA_CHECK=1 train.py --deepspeed_config ds.json  # dsdoctor: ignore[deepspeed-export-flag]
deepspeed --num_gpus 2 \
    --export NCCL_DEBUG=INFO \
    train.py --deepspeed_config ds.json  # dsdoctor: ignore[DS416]
echo "# dsdoctor: ignore is quoted here"; deepspeed --export A=1 train.py --deepspeed_config ds.json
deepspeed --num_gpus 2 train.py --deepspeed_config ds.json # dsdoctor: ignore[deepspeed-export-flag]
deepspeed --export B=2 train.py --deepspeed_config ds.json #not-a-directive dsdoctor: ignore
