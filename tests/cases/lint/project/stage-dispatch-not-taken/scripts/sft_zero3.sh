#!/bin/bash
deepspeed --num_gpus 8 src/train.py --stage sft --model_name_or_path gpt2 --deepspeed configs/ds_zero3.json
