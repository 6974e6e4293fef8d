#!/bin/bash
accelerate launch --config_file conf/zero3.yaml finetune.py
