#!/bin/bash
# fill in configs/hostfile with your nodes first
deepspeed --hostfile configs/hostfile train.py --deepspeed configs/zero2.json
# the other node lists of configs/, each for its own cluster
deepspeed --hostfile configs/hostfile_two_nodes train.py --deepspeed configs/zero2.json
deepspeed --hostfile configs/hostfile_repeated train.py --deepspeed configs/zero2.json
