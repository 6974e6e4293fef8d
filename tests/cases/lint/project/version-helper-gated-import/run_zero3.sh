#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed configs/zero3.json
