#!/bin/bash
# missing too, but an FSDP config: not a DeepSpeed launch, nothing said
accelerate launch --config_file configs/fsdp.yaml train.py --output_dir out
