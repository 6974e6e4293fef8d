#!/bin/bash
deepspeed evaluate_gpt.py --deepspeed --deepspeed_config configs/zero3.json
