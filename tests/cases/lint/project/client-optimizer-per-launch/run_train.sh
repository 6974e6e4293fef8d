#!/bin/bash
deepspeed --num_gpus 2 train.py --deepspeed_config ds_train.json
