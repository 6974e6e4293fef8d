import transformers
from transformers.deepspeed import is_deepspeed_zero3_enabled

parser = transformers.HfArgumentParser(transformers.TrainingArguments)
(args,) = parser.parse_args_into_dataclasses()
print(is_deepspeed_zero3_enabled())
