import argparse
import json

import deepspeed
import torch

p = argparse.ArgumentParser()
p.add_argument("--deepspeed_config")
a = p.parse_args()
cfg = json.load(open(a.deepspeed_config))
base = {"steps_per_print": 50}
base.update({"wall_clock_breakdown": False})
net = torch.nn.Linear(16, 16)
engine, *_ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=cfg)
