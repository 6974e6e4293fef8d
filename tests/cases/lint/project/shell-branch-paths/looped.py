# scripts/run_loop.sh runs this once per stage, ZeRO-3 included: the device_map load is an error.
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=training_args).train()
