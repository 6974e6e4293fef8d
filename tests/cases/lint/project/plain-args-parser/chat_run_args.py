# the same loader, but its parser builds RunArgs, a TrainingArguments subclass: --deepspeed registers ZeRO-3
from args import ModelArgs, RunArgs
from transformers import AutoModelForCausalLM, HfArgumentParser

parser = HfArgumentParser((ModelArgs, RunArgs))
margs, rargs = parser.parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(margs.model, device_map="auto")
