#!/bin/bash
WORKING_DIR=/root/work/writer-checkout-entry
deepspeed --num_gpus 8 ${WORKING_DIR}/finetune.py --deepspeed --deepspeed_config ${WORKING_DIR}/configs/ds_eval.json
