#!/bin/bash
# accelerate's plugin writes --zero3_save_16bit_model into the config's "auto" gather flag
accelerate launch --use_deepspeed --zero3_save_16bit_model true --deepspeed_config_file conf/stage3_auto.json \
    tune.py --lr 1e-5
accelerate launch --use_deepspeed --deepspeed_config_file conf/stage3_auto_unset.json tune.py --lr 1e-5
