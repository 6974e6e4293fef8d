"""The job the Ray cluster runs: builds the actor and its DeepSpeed engine (config built in code from --zero_stage)."""
import argparse

import deepspeed
from transformers import AutoModelForCausalLM
from transformers.integrations import HfDeepSpeedConfig

from pkg.models import Actor

parser = argparse.ArgumentParser()
parser.add_argument("--zero_stage", type=int, default=2)
parser.add_argument("--pretrain", default="gpt2")
args = parser.parse_args()
ds_config = {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": args.zero_stage}}
keep = HfDeepSpeedConfig(ds_config)
actor = Actor(args.pretrain)
critic = AutoModelForCausalLM.from_pretrained(args.pretrain, device_map="auto")
engine, *_ = deepspeed.initialize(model=actor, config=ds_config, model_parameters=actor.parameters())
