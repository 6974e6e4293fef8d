#!/bin/bash
deepspeed --num_gpus 8 train.py --cfg configs/stage3.yaml
