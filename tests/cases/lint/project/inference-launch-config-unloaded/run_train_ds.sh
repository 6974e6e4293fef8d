#!/bin/bash
deepspeed --num_gpus=8 train/train.py --deepspeed_config ds_config/ds_z2.json --model_path gpt2
