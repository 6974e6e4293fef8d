import argparse

import deepspeed
import torch


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--deepspeed_config", default="conf/plain_default.json")
    a = p.parse_args()
    net = torch.nn.Linear(4, 4)
    engine, *_ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=a.deepspeed_config)
    for _ in range(a.epochs):
        engine.train()


if __name__ == "__main__":
    main()
