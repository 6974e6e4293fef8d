#!/bin/bash
deepspeed --num_gpus 4 finetune.py --deepspeed configs/zero3.json --model_name_or_path gpt2 --qlora
