#!/bin/bash
deepspeed --num_gpus 8 rlkit/train.py
