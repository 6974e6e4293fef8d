"""A demo: reads an experiment config and serves the model it names; it never trains."""
import runpy
import sys

from transformers import AutoModelForCausalLM, TrainingArguments

cfg = runpy.run_path(sys.argv[1])
args = TrainingArguments(**cfg["training_args"])
model = AutoModelForCausalLM.from_pretrained(cfg["model_args"]["pretrained_model_name_or_path"])
print(model.generate)
