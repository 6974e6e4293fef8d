#!/bin/bash
# the default engine: the config option is handed over but never opened
engine=ddp
torchrun --nproc_per_node 4 fit.py --engine ${engine} --deepspeed_config conf/zero2.json
