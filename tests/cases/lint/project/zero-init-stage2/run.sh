#!/bin/bash
# both scripts train with the same ZeRO-2 config
deepspeed --num_gpus 2 train.py --deepspeed_config ds_zero2.json
deepspeed --num_gpus 2 train_gated.py --deepspeed_config ds_zero2.json
