import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--size")
args = parser.parse_args()
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                       config=f"dsconfig/offload_{args.size}.json")
