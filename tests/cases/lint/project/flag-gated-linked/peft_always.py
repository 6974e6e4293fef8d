# The ZeRO-3 launch of this one passes --use_lora: the same checkpointing is an error on the pinned DeepSpeed 0.15.4.
import argparse

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--use_lora", action="store_true")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

model = AutoModelForCausalLM.from_pretrained("gpt2")
if args.use_lora:
    model = get_peft_model(model, LoraConfig(r=8))
model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
Trainer(model=model, args=training_args).train()
