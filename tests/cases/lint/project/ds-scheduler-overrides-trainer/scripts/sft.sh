#!/bin/bash
# the second launch passes the Trainer's name for what the config's block does: nothing to report there
deepspeed train.py --deepspeed configs/decay.json --lr_scheduler_type "cosine" --learning_rate 2e-5
deepspeed train.py --deepspeed configs/constant.json --lr_scheduler_type constant_with_warmup
