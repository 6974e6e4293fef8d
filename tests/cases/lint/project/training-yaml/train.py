import sys

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_yaml_file(sys.argv[1], allow_extra_keys=True)
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=args).train()
