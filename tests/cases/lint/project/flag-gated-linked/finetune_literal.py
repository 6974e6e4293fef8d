# low_cpu_mem_usage=False whatever the stage: the QLoRA launch (ZeRO-2, --q_lora) raises on 4.20-4.50: an error.
import argparse

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--q_lora", action="store_true")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

device_map = None
if args.q_lora:
    device_map = "auto"
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map=device_map, low_cpu_mem_usage=False)
Trainer(model=model, args=training_args).train()
