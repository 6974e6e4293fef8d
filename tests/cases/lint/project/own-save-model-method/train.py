"""Train with raw deepspeed.initialize."""
import argparse

import deepspeed
from model import load_model
from transformers.integrations import HfDeepSpeedConfig


def main(args):
    dschf = HfDeepSpeedConfig(args.ds_config)
    agent = load_model(args)
    for step in range(args.steps):
        agent.train_step(step)
    agent.save_model(args.save_path, args.steps)
    return dschf


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ds_config", default="ds/zero3.json")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--save_path", default="ckpt")
    parser.add_argument("--local_rank", type=int, default=-1)
    deepspeed.init_distributed()
    main(parser.parse_args())
