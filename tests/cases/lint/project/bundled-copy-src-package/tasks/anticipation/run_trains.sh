#!/bin/bash
for i in 1 2; do
  command="srun -p gpu -N 1 --gres=gpu:1 python tools/train_net.py --config_file ./configs/short_${i}.yaml"
  echo "Running: $command"
  eval $command
done
