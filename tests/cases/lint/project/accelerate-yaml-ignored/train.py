"""An HF Trainer run that accelerate launches with a ZeRO-3 YAML (no gradient_clipping in it)."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
trainer = Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=training_args)
trainer.train()
trainer.save_model()
