#! /bin/bash
# set YOUR_PATH_TO to the directory holding your clone
WORKING_DIR=${YOUR_PATH_TO}/Placeholder-Working-Dir

DS_CONFIG="${WORKING_DIR}/configs/ds_zero2.json"

OPTS=""
OPTS+=" --deepspeed"
OPTS+=" --deepspeed_config ${DS_CONFIG}"

CMD="deepspeed --num_gpus 8 ${WORKING_DIR}/distill.py ${OPTS}"
echo ${CMD}
${CMD}
