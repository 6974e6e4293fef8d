#!/bin/bash
deepspeed rlhf/ppo.py
