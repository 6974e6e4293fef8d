"""Pretrain with a client optimizer."""
import argparse

import deepspeed
import torch
from megatron.optimizer import get_optimizer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu-optimizer", action="store_true")
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = torch.nn.Linear(8, 8)
    optimizer = get_optimizer(model, args)
    engine, _, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, args=args)
    return engine


if __name__ == "__main__":
    main()
