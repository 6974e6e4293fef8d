"""Evaluate a GPT checkpoint."""
import argparse

import deepspeed
import torch

if __name__ == "__main__":
    args = deepspeed.add_config_arguments(argparse.ArgumentParser()).parse_args()
    engine, _, _, _ = deepspeed.initialize(model=torch.nn.Linear(4, 4), args=args)
    engine.eval()
