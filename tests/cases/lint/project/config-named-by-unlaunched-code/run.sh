#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed_config ds_train.json
