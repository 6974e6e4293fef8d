import argparse

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--train_args_file", default="./train/train_args/sft.json")
parser.add_argument("--local_rank", type=int, default=-1)
opts = parser.parse_args()
(training_args,) = HfArgumentParser((TrainingArguments,)).parse_json_file(json_file=opts.train_args_file)
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=training_args).train()
