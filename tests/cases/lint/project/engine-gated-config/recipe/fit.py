import argparse
import json

import deepspeed
import torch


def options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="ddp", choices=["ddp", "deepspeed"])
    parser.add_argument("--deepspeed_config", default=None)
    return parser.parse_args()


def build(args, net):
    if args.engine == "deepspeed":
        with open(args.deepspeed_config) as fh:
            precision = json.load(fh).get("bf16", {})
        engine, *_ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
        return engine, precision
    return torch.nn.parallel.DistributedDataParallel(net), {}


if __name__ == "__main__":
    build(options(), torch.nn.Linear(4, 4))
