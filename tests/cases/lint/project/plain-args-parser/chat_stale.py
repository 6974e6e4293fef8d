# a chat script left behind by a rename: args.py no longer has ChatArgs, so the import fails before any parser runs
from args import ChatArgs
from transformers import AutoModelForCausalLM, HfArgumentParser

(cargs,) = HfArgumentParser((ChatArgs,)).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(cargs.model, device_map="auto")
print(model.generate())
