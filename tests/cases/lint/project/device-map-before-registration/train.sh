#!/bin/bash
deepspeed --num_gpus 2 finetune.py --deepspeed ds_z3.json
