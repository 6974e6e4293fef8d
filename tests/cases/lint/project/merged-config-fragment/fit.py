import argparse
import json

import deepspeed
import torch


def options():
    p = argparse.ArgumentParser()
    p.add_argument("--zero", default="z2")
    p.add_argument("--micro", type=int, default=2)
    return p.parse_args()


def main():
    o = options()
    net = torch.nn.Linear(16, 16)
    settings = {"train_micro_batch_size_per_gpu": o.micro, "gradient_accumulation_steps": 1}
    where = f"zero/{o.zero}.json"
    with open(where) as fh:
        extra = json.load(fh)
    settings.update(extra)
    engine, *_ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=settings)
    engine.train()


if __name__ == "__main__":
    main()
