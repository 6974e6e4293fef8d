#!/bin/bash
#SBATCH --nodes=2
TRAIN_SCRIPT=${1-scripts/train_node.sh}
CONFIG_FILE=${2-configs/accelerate/zero2.yaml}
srun $TRAIN_SCRIPT $CONFIG_FILE
