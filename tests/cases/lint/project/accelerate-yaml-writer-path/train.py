from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
Trainer(model=model, args=args).train()
