#!/bin/bash
deepspeed train.py config/exp_deepspeed.py
