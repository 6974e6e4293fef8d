from transformers import HfArgumentParser, TrainingArguments
from transformers.deepspeed import is_deepspeed_zero3_enabled

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
print(is_deepspeed_zero3_enabled())
