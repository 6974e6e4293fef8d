from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")  # fine with ZeRO-2, refused by ZeRO-3
Trainer(model=model, args=training_args).train()
