#!/bin/bash
accelerate launch --config_file accelerate_configs/zero3.yaml train.py
