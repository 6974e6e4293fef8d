#!/bin/bash
# the loop sets stage itself (the literal before it decides nothing): the ZeRO-3 iteration runs
stage=2
for stage in 2 3; do
    if [ "$stage" -eq 3 ]; then cfg=configs/zero3.json; else cfg=configs/zero2.json; fi
    deepspeed --num_gpus 8 looped.py --deepspeed $cfg
done
