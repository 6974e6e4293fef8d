#!/bin/bash
# one GPU, with the launcher torch had before torchrun
python -m torch.distributed.launch --nproc_per_node=1 small.py --deepspeed --deepspeed_config small.json
