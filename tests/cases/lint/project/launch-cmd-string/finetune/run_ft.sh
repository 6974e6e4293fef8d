#!/bin/bash
# run from the project's root; installs the DeepSpeed release it was written for
pip install -r requirements.txt
pip install deepspeed==0.9.1

DS_CONFIG=./finetune/config/ds_ft.json
OPTS=""
OPTS+=" --data_path /path/to/data.json"
OPTS+=" --epochs 3"
OPTS+=" --deepspeed_config ${DS_CONFIG}"
OPTS+=" $@"
CMD="deepspeed ./finetune/train_ft.py ${OPTS}"

echo "${CMD}"
$CMD
