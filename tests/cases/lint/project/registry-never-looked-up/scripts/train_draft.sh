#!/bin/bash
deepspeed --num_gpus 4 src/train_draft.py --model gpt2 --deepspeed configs/ds_zero3.json
