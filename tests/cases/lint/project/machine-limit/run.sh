#!/bin/bash
deepspeed --num_gpus 4 train.py --deepspeed configs/zero3_offload.json
