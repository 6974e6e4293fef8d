"""Trains with the Trainer; accelerate's config file sets up DeepSpeed."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
trainer = Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args)
trainer.train()
trainer.save_model()
