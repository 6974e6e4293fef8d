#!/bin/bash
# QLoRA at stage 2: --bits 4 turns on the device_map branch of pkg/lora.py
deepspeed pkg/lora.py --deepspeed configs/zero2.json --output_dir out --bits 4
