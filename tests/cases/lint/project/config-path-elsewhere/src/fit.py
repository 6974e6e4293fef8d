from transformers import HfArgumentParser, Trainer, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
Trainer(model=None, args=args).train()
