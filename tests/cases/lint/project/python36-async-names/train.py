from transformers import AutoModelForTokenClassification, HfArgumentParser, Trainer, TrainingArguments

from batching import to_device

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)
Trainer(model=model, args=args, data_collator=to_device).train()
