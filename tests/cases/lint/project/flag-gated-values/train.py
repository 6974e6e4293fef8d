import argparse

from transformers import AutoModelForCausalLM, BitsAndBytesConfig, GPTQConfig, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--load_bits", type=int, default=16)
parser.add_argument("--use_lora", action="store_true")
parser.add_argument("--use_q_lora", action="store_true")
parser.add_argument("--cache_mode", default="none")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

model = AutoModelForCausalLM.from_pretrained(
    "gpt2",
    quantization_config=GPTQConfig(bits=4) if args.use_lora and args.use_q_lora else None,  # never both: info
)
if args.load_bits in [4, 8]:  # the launch passes --load_bits 16: never taken, info
    model = AutoModelForCausalLM.from_pretrained("gpt2", quantization_config=BitsAndBytesConfig(load_in_4bit=True))
if args.cache_mode == "local":  # the launch passes --cache_mode local: taken, still an error
    model = AutoModelForCausalLM.from_pretrained("cache/gpt2", device_map="auto")
Trainer(model=model, args=training_args).train()
