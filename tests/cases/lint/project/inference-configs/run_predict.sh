#!/bin/bash
deepspeed --num_gpus 8 predict.py --deepspeed configs/zero3_predict.json
