#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed ds_z3.json
