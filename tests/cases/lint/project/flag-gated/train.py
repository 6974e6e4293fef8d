import argparse

from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--bits", type=int, default=16)
parser.add_argument("--use_cache_model", action="store_true")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

kwargs = {}
if args.bits in (4, 8):  # no ZeRO-3 launch passes --bits: info
    kwargs.update(device_map={"": 0}, quantization_config=BitsAndBytesConfig(load_in_4bit=args.bits == 4))
model = AutoModelForCausalLM.from_pretrained("gpt2", **kwargs)
if args.use_cache_model:  # the ZeRO-3 launch passes --use_cache_model: still an error
    model = AutoModelForCausalLM.from_pretrained("cache/gpt2", device_map="auto")
Trainer(model=model, args=training_args).train()
