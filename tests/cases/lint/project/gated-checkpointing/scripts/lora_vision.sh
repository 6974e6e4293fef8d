#!/bin/bash
deepspeed sft.py --deepspeed configs/zero3.json --lora True --tower_lora True --gradient_checkpointing True --output_dir out
