#!/bin/bash
deepspeed rl.py --model_name_or_path Qwen/Qwen2.5-7B --load_in_8bit True --deepspeed configs/zero3.json
