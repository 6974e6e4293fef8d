#!/bin/bash
CONFIG_PATH=ds_config_gpt-125M-lr-2e-4-step-2000.json
deepspeed evaluate_gpt.py --deepspeed --deepspeed_config $CONFIG_PATH
