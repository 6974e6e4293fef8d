"""Evaluate GPT."""
import argparse

import deepspeed
import torch


def main():
    parser = deepspeed.add_config_arguments(argparse.ArgumentParser())
    args = parser.parse_args()
    engine, _, _, _ = deepspeed.initialize(model=torch.nn.Linear(4, 4), args=args)
    return engine


if __name__ == "__main__":
    main()
