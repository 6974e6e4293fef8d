#!/bin/bash
# the stage left out: the arguments' declared default ("sft") runs
deepspeed --num_gpus 8 src/train.py --model_name_or_path gpt2 --deepspeed configs/ds_zero3.json
