#!/bin/bash
accelerate launch --config_file configs/zero3.yaml train.py
