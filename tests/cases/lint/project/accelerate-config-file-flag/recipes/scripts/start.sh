#!/bin/bash
# run from recipes/: the config's extension is .conf, accelerate reads it as JSON all the same
CONFIG=conf/stage2_cpu.conf
accelerate launch --use_deepspeed --num_processes 2 \
    --deepspeed_config_file $CONFIG \
    tune.py --lr 1e-5
