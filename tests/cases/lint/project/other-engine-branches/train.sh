#!/bin/bash
deepspeed train.py --deepspeed ds_z3.json
