#!/bin/bash
deepspeed preference.py --deepspeed configs/zero3.json --lora True --gradient_checkpointing True --output_dir out
