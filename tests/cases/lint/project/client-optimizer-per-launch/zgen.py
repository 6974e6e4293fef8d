import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=-1)
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(args=args, model=model)
print(engine(torch.randn(1, 8, device=engine.device)))
