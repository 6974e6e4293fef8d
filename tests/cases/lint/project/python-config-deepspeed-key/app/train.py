"""Reads an experiment config (a Python file) and trains with the Trainer."""
import runpy
import sys

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

cfg = runpy.run_path(sys.argv[1])
args = TrainingArguments(**cfg["training_args"])
model = AutoModelForCausalLM.from_pretrained(cfg["model_args"]["pretrained_model_name_or_path"], device_map="auto")
trainer = Trainer(model=model, args=args)
trainer.train()
trainer.save_model()
