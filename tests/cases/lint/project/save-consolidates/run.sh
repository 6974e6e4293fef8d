#!/bin/bash
deepspeed --num_gpus 8 rl_train.py --deepspeed_config configs/zero3_rl.json
deepspeed --num_gpus 8 sft.py --deepspeed configs/zero3_sft.json
