from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments
from transformers.deepspeed import is_deepspeed_zero3_enabled

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
print(is_deepspeed_zero3_enabled())
Trainer(model=model, args=args).train()
