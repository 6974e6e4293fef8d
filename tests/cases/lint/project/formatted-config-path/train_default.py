import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--zero_stage", type=int, default=3)
parser.add_argument("--output_dir")
args = parser.parse_args()
config = "dsconfig/zero{}.json".format(args.zero_stage)
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
