import argparse

from engines.olmo_actor import ACTORS
from transformers import HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--engine", default="deepspeed", choices=["deepspeed", "fsdp", *ACTORS])
ns, rest = parser.parse_known_args()
if ns.engine == "fsdp":
    from engines.fsdp import train_fsdp

    train_fsdp("gpt2")
else:
    from engines.hf import load

    args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)
    Trainer(model=load("gpt2"), args=args).train()
