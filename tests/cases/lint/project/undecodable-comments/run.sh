#!/bin/bash
deepspeed train.py --deepspeed ds_zero2.json
deepspeed tool.py --deepspeed ds_zero2.json
