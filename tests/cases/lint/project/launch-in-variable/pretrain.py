"""Pre-training with the raw DeepSpeed engine."""
import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--num-layers", type=int, default=2)
parser.add_argument("--hidden-size", type=int, default=64)
parser.add_argument("--seq-length", type=int, default=128)
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
model = torch.nn.Linear(args.hidden_size, args.hidden_size)
engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
