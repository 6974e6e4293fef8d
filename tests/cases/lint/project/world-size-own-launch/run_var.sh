#!/bin/bash
# every GPU the machine has: a size the launch line does not say
deepspeed small.py --deepspeed_config var.json
