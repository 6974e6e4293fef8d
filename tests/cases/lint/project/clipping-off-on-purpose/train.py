from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args).train()
