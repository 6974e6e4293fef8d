# QLoRA (a device_map load) only with --use_qlora true, which scripts/run_decided.sh passes; that script sets
# lora_enabled=true before its branches, so it always takes the ZeRO-2 config: no ZeRO-3 launch runs this file.
import argparse

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--use_qlora", type=lambda s: s == "true", default=False)
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

model = AutoModelForCausalLM.from_pretrained("gpt2")
if args.use_qlora:
    model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=training_args).train()
