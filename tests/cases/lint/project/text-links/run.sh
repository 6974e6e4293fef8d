#!/bin/bash
deepspeed train.py --deepspeed configs/alias/zero2.json
