#!/bin/bash
deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_z2.json
deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_z1.json
