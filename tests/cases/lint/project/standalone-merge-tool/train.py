import transformers

parser = transformers.HfArgumentParser(transformers.TrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
model = transformers.AutoModelForCausalLM.from_pretrained("facebook/opt-125m")
trainer = transformers.Trainer(model=model, args=training_args)
trainer.train()
trainer.save_model()
