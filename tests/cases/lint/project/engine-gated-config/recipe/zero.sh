#!/bin/bash
torchrun --nproc_per_node 4 fit.py --engine deepspeed --deepspeed_config conf/zero2.json
