#!/bin/bash
# runs from any working directory: paths are taken from where this script lives
HERE=$(cd "$(dirname "$0")"; pwd)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

deepspeed --num_gpus 4 ${ROOT}/sft.py \
    --model_name_or_path gpt2 \
    --deepspeed ${HERE}/../../configs/zero3.json \
    --output_dir ${ROOT}/out
