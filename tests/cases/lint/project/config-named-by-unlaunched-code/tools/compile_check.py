"""Trains a toy model a few steps with torch.compile under ZeRO-3 and prints the loss; saves nothing."""
import argparse

import deepspeed
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=-1)
parser.add_argument("--deepspeed_config", type=str, default="ds_compile_z3.json")
args = parser.parse_args()
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
engine.compile()
for _ in range(3):
    loss = engine(torch.randn(1, 8, device=engine.device)).sum()
    engine.backward(loss)
    engine.step()
    print(loss.item())
