#!/bin/bash
deepspeed --hostfile hostfile train.py --deepspeed ds.json
