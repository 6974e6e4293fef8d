#!/bin/bash
ray start --head --num-gpus 8
ray job submit --address="http://127.0.0.1:8265" \
   --runtime-env-json='{"working_dir": "."}' \
   -- python3 -m pkg.cli.train_ray \
   --pretrain gpt2 \
   --zero_stage 3
