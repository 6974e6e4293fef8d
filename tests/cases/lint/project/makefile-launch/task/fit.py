import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--home")
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
net = torch.nn.Linear(4, 4)
engine, *_ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
