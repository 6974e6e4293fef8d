"""Reads its Trainer arguments from the ``training_args`` section of a YAML file."""
import sys

import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

with open(sys.argv[1]) as fh:
    conf = yaml.safe_load(fh)
args = TrainingArguments(**conf["training_args"])
model = AutoModelForCausalLM.from_pretrained(conf["model"], device_map="auto")
Trainer(model=model, args=args).train()
