#!/bin/bash
deepspeed --hostfile hosts train.py --deepspeed ds.json
