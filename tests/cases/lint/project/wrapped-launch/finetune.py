"""Full fine-tune with the HF Trainer."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)[:1]
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=args).train()
