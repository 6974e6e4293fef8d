#!/bin/bash
# run from the repository's root as `bash train.sh`, or `bash train.sh /path/to/checkout`
BASE_PATH=${1-"."}
GPUS=${2:-8}
OPTS=""
OPTS+=" --deepspeed ${BASE_PATH}/configs/ds_zero3.json"
OPTS+=" --output_dir ${BASE_PATH}/out"
CMD="torchrun --nproc_per_node ${GPUS} ${BASE_PATH}/finetune.py ${OPTS} $@"
echo ${CMD}
${CMD}
