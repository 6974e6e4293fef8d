#!/bin/bash
accelerate launch --config_file configs/accelerate.yaml train.py
