import argparse
import json

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=-1)
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
with open(args.deepspeed_config) as fh:
    stage = json.load(fh)["zero_optimization"]["stage"]

deepspeed.init_distributed()
with deepspeed.zero.Init(config_dict_or_path=args.deepspeed_config, enabled=(stage == 3)):
    net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 1))

engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
for _ in range(10):
    x = torch.randn(4, 32, device=engine.device)
    loss = engine(x).pow(2).mean()
    engine.backward(loss)
    engine.step()
