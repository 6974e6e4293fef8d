#!/bin/bash
# full fine-tuning under ZeRO-3: its YAML turns quantization off
torchrun --nproc_per_node=4 src/run.py configs/full_zero3.yaml
