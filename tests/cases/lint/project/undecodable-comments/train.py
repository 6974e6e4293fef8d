from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

from helpers import pick_model

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(pick_model())
Trainer(model=model, args=args).train()
