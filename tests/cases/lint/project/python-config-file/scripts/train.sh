#!/bin/bash
# the Python config sets load_from_origin=False; the line turns the CPU vision init on under ZeRO-3
accelerate launch --config_file configs/zero3.yaml train.py \
    configs/exp.py \
    model.cpu_vision_init True \
    batch_size 8
