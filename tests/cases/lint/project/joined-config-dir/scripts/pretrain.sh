#!/bin/bash
deepspeed src/pretrain.py --deepspeed_config zero3_raw.json
