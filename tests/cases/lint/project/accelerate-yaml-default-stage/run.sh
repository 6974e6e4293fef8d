#!/bin/bash
# the launch this project ships
accelerate launch --config_file ds.yaml train.py
