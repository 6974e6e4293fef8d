#!/bin/bash
deepspeed fit.py --deepspeed_config z3.json --out ckpt
