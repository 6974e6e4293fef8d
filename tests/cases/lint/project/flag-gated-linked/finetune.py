# low_cpu_mem_usage is off only under ZeRO-3 and device_map is set only with --q_lora: the two meet only in a
# launch passing --q_lora with ZeRO-3, which no recipe here does (QLoRA runs with ZeRO-2): info, not an error.
import argparse

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments
from transformers.integrations import deepspeed

parser = argparse.ArgumentParser()
parser.add_argument("--q_lora", action="store_true")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

device_map = None
if args.q_lora:
    device_map = "auto"
load_kwargs = {"low_cpu_mem_usage": not deepspeed.is_deepspeed_zero3_enabled()}
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map=device_map, **load_kwargs)
Trainer(model=model, args=training_args).train()
