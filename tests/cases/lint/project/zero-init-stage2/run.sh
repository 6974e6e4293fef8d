#!/bin/bash
# both scripts train with the same ZeRO-2 config
deepspeed --num_gpus 2 train.py --deepspeed_config ds_zero2.json
deepspeed --num_gpus 2 train_gated.py --deepspeed_config ds_zero2.json
# this one also runs with ZeRO-3: lint cannot tell one launch from the other, so it stays silent
deepspeed --num_gpus 2 train_both.py --deepspeed_config ds_zero2.json
deepspeed --num_gpus 2 train_both.py --deepspeed_config ds_zero3.json
