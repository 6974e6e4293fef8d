#!/bin/bash
deepspeed --num_gpus 2 zgen.py --deepspeed_config ds_gen.json
