#!/bin/bash
WORKING_DIR=/root/work/writer-checkout-entry
DS_CONFIG="${WORKING_DIR}/configs/ds_zero3.json"
OPTS="--deepspeed --deepspeed_config ${DS_CONFIG}"
CMD="deepspeed --num_gpus 8 ${WORKING_DIR}/finetune.py ${OPTS}"
${CMD} 2>&1 | tee train.log
