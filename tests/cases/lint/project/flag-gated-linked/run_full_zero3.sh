#!/bin/bash
deepspeed --num_gpus 8 finetune.py --deepspeed configs/zero3.json
deepspeed --num_gpus 8 finetune_literal.py --deepspeed configs/zero3.json
deepspeed --num_gpus 8 peft_optional.py --deepspeed configs/zero3.json
deepspeed --num_gpus 8 peft_always.py --deepspeed configs/zero3.json --use_lora
