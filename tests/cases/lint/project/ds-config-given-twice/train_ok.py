import argparse

import deepspeed
import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    args.deepspeed_config = None  # the config is built below
    ds_config = {"train_batch_size": 1}
    model = torch.nn.Linear(4, 4)
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), args=args, config=ds_config)
    print("STARTED", type(engine).__name__)


if __name__ == "__main__":
    main()
