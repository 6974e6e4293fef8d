import argparse

import deepspeed
from utils.builder import build_model


def ds_config(stage):
    return {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": stage},
            "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--zero_stage", type=int, default=0)
    parser.add_argument("--arch", default="default")
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    config = ds_config(args.zero_stage)
    model = build_model(args.arch, config)
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)


if __name__ == "__main__":
    main()
