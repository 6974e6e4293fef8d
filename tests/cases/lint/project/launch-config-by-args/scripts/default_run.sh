#!/bin/bash
deepspeed default_train.py --epochs 2
