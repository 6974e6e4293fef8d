#!/bin/bash
deepspeed trainer/train.py --output_dir out --deepspeed /path/to/your/ds_config.json
deepspeed trainer/train.py --output_dir out --deepspeed kept.json
