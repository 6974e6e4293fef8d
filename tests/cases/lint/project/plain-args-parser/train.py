from args import ModelArgs
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

margs, targs = HfArgumentParser((ModelArgs, TrainingArguments)).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(margs.model)
Trainer(model=model, args=targs).train()
