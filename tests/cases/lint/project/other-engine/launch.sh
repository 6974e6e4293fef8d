#!/bin/bash
deepspeed train.py --engine deepspeed --deepspeed configs/zero3.json
