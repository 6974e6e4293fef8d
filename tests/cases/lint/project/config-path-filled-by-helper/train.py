"""Loads its DeepSpeed config by path and fills the batch size in a helper before deepspeed.initialize."""
import argparse
import json

import deepspeed
import torch


def setup_dsconfig(ds_config, args):
    ds_config["train_batch_size"] = args.global_batch_size
    ds_config["gradient_accumulation_steps"] = args.gradient_accumulation_steps
    return ds_config


parser = argparse.ArgumentParser()
parser.add_argument("--global_batch_size", type=int, default=64)
parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
args = parser.parse_args()
stage3_config = json.load(open("configs/stage3_config.json"))
stage3_config = setup_dsconfig(stage3_config, args)
model = torch.nn.Linear(4, 4)
engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=stage3_config)
