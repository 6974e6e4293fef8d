#!/bin/bash
# TrainingArguments parses the config, but only the HF Trainer's deepspeed_init refuses a mismatch: the own loop runs
deepspeed --num_gpus 8 train_own_loop.py --deepspeed configs/own_loop.json --per_device_train_batch_size 16 --output_dir out
