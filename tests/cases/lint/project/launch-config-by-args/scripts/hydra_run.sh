#!/bin/bash
cfg=conf/hydra_ds.json
deepspeed raw_train.py ++train.lr=1e-4 ++deepspeed_config=$cfg
