import transformers

parser = transformers.HfArgumentParser(transformers.TrainingArguments)
(args,) = parser.parse_args_into_dataclasses()
trainer = transformers.Trainer(model=None, args=args)
