#!/bin/bash
colossalai run --nproc_per_node 8 --hostfile hostfile --master_port 30013 train.py --plugin zero2
