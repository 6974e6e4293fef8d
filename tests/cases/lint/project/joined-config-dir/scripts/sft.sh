#!/bin/bash
ROOT=/home/someone/work
cd $ROOT/proj || exit
deepspeed $ROOT/proj/src/sft.py --deepspeed_config "zero3.json"
