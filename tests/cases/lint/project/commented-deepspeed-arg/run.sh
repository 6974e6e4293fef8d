#!/bin/bash
torchrun --nproc_per_node=1 forget.py
