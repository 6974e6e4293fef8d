"""Trains under ZeRO-3 and takes one function from the evaluation helpers."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

from tuner.evaluation import format_prompt, score_run

(training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
print(format_prompt("hello"))
trainer = Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=training_args)
trainer.train()
score_run(training_args.output_dir)
