import argparse

import deepspeed
from methods.registry import METHODS
from transformers import AutoModelForCausalLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--method", default="plain")
    parser.add_argument("--zero_stage", type=int, default=2)
    parser.add_argument("--output_dir", default="out")
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    args.global_rank = 0
    config = {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": args.zero_stage}}
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    if args.method not in METHODS:
        raise SystemExit(f"unknown method {args.method}")
    METHODS[args.method](engine, args).save()


if __name__ == "__main__":
    main()
