#!/bin/bash
deepspeed train.py --deepspeed ds_config.json --batch_size 4
