from transformers import HfArgumentParser, TrainingArguments

(args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
