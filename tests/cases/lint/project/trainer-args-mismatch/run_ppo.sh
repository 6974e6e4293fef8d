#!/bin/bash
# the script parses its own plain arguments, not TrainingArguments: nothing the Trainer checks the config against
deepspeed --num_gpus 8 train_ppo.py --deepspeed configs/own_loop.json --per_device_train_batch_size 16
