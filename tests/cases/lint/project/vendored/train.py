from mypkg.loading import load_model
from transformers import HfArgumentParser, Trainer, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
Trainer(model=load_model("gpt2"), args=args).train()
