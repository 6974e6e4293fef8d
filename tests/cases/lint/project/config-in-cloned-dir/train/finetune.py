import transformers

parser = transformers.HfArgumentParser(transformers.TrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
model = transformers.AutoModelForCausalLM.from_pretrained("facebook/opt-125m")
transformers.Trainer(model=model, args=training_args).train()
