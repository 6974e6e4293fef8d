#!/bin/bash
deepspeed train.py --deepspeed configs/dangling.json
