# scripts/run_case.sh runs this under ZeRO-3 only on its "full" arm, which passes --cache_mode local: the load
# behind cache_mode == "local" is an error; the one behind cache_mode == "none" (the ZeRO-2 arm's) is info.
import argparse

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--cache_mode", default="none")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

model = AutoModelForCausalLM.from_pretrained("gpt2")
if args.cache_mode == "local":
    model = AutoModelForCausalLM.from_pretrained("cache/gpt2", device_map="auto")
if args.cache_mode == "none":
    model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=training_args).train()
