import deltalib
from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = deltalib.wrap(AutoModelForSeq2SeqLM.from_pretrained("t5-base"))
