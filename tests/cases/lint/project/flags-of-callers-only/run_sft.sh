#!/bin/bash
deepspeed sft.py --model_name_or_path Qwen/Qwen2.5-7B --deepspeed configs/zero3.json
