#!/bin/bash
# the config is built in train.py; ds_old.json is a leftover of an older recipe
deepspeed train.py --deepspeed --deepspeed_config ds_old.json
