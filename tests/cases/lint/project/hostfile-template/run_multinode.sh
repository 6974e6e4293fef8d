#!/bin/bash
# fill in configs/hostfile with your nodes first
deepspeed --hostfile configs/hostfile train.py --deepspeed configs/zero2.json
