#!/bin/bash
deepspeed --num_gpus 2 qlora_xpu.py --deepspeed configs/zero3.json
deepspeed --num_gpus 2 qlora_cuda.py --deepspeed configs/zero3.json
