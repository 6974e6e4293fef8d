#!/bin/bash
deepspeed --num_gpus 8 small.py --deepspeed_config big.json
