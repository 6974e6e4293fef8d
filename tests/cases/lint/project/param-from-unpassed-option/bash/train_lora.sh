#!/bin/bash
# 4-bit LoRA on one GPU, no DeepSpeed
python src/run.py configs/lora_4bit.yaml
