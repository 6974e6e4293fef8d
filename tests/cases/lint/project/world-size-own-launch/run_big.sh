#!/bin/bash
deepspeed --num_gpus 8 big.py --deepspeed_config big.json
