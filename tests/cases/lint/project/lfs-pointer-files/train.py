"""Trains with the Trainer; the config and a helper module are kept in Git LFS (pointers in this checkout)."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
trainer = Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args)
trainer.train()
trainer.save_model()
