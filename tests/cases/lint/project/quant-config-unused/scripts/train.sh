#!/bin/bash
deepspeed --num_gpus 8 train.py --deepspeed zero3.json --bf16 True --output_dir out
deepspeed --num_gpus 8 train_qlora.py --deepspeed zero3.json --bf16 True --output_dir out_qlora
