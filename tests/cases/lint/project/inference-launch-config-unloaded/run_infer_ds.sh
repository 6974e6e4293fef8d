#!/bin/bash
deepspeed --num_gpus=8 infer/inference.py --deepspeed_config ds_config/ds_z2.json --model_path out
