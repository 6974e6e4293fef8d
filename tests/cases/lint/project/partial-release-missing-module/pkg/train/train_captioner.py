"""Trains the captioner: stops at its import of pkg.models.captioner (ModuleNotFoundError for pkg.models.blip)."""
# ruff: noqa: I001  (the order of the imports is the case: the failing one comes first)
from transformers import HfArgumentParser, Trainer, TrainingArguments

from pkg.models.captioner import Captioner
from transformers.deepspeed import is_deepspeed_zero3_enabled

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
print(is_deepspeed_zero3_enabled())
trainer = Trainer(model=Captioner().load("gpt2"), args=args)
trainer.train()
