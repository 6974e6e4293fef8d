#!/bin/bash
deepspeed recipes/t5/train.py --deepspeed recipes/t5/ds.json
