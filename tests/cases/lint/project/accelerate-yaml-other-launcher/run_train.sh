#!/bin/bash
# the DeepSpeed config is chosen by whoever runs this script
DS_CONFIG=${1:-}
deepspeed --num_gpus 4 train.py --model_name my-org/tiny-base --output_dir out --deepspeed "$DS_CONFIG"
