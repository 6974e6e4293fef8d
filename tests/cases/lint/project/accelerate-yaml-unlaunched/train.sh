#!/bin/bash
# the shipped launch uses the ZeRO-2 YAML; the ZeRO-3 offload YAML (and its JSON full of "auto") is an alternative
# a user picks by hand: every accelerate launch here starts a Trainer script, which fills those "auto" values
accelerate launch --config_file accelerate_configs/zero2.yaml train.py --output_dir out
