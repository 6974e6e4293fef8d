#!/bin/bash
deepspeed --num_gpus 4 finetune.py --deepspeed configs/zero3.json --arch causal
