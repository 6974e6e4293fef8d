#!/bin/bash
accelerate launch --config_file ./configs/infer_single_node.yaml ./infer.py --data test.jsonl
