#!/bin/bash
accelerate launch --config_file conf/two_gpus.json tune.py
