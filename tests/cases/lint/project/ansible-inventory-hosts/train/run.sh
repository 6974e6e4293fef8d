#!/bin/bash
deepspeed --hostfile train/hostfile train/train.py --deepspeed train/ds.json
