#!/bin/bash
accelerate launch --config_file configs/accelerate.yaml rl.py
