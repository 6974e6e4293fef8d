#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed configs/zero2.json --use_lora True --qlora True
