#!/bin/bash
deepspeed --num_gpus 8 qlora_off.py --deepspeed configs/zero3.json
deepspeed --num_gpus 8 qlora_on.py --deepspeed configs/zero3.json --use_qlora
