#!/bin/bash
deepspeed fit.py --zero z2 --micro 4
deepspeed whole.py --deepspeed_config zero/whole.json
