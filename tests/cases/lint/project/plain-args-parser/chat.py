# an inference script: its parser reads only the project's plain argument classes, so nothing registers ZeRO-3
from args import ModelArgs, SamplingArgs
from transformers import AutoModelForCausalLM, HfArgumentParser

parser = HfArgumentParser((ModelArgs, SamplingArgs))
margs, sargs = parser.parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(margs.model, device_map="auto")
print(model.generate(temperature=sargs.temperature))
