#!/bin/bash
# run from the repository root: sbatch scripts/slurm_finetune.sh
PARTITION=${PARTITION:-gpu}
GPUS_PER_NODE=8

srun -p ${PARTITION} \
  --gres=gpu:${GPUS_PER_NODE} \
  --ntasks-per-node=${GPUS_PER_NODE} \
  --kill-on-bad-exit=1 \
  python -u finetune.py \
  --model_name_or_path gpt2 \
  --output_dir out/finetune \
  --deepspeed "zero3.json"
