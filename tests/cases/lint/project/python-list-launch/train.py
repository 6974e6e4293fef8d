import argparse

import transformers
from transformers import AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--model_name")
parser.add_argument("--round", type=int)
parser.add_argument("--deepspeed")
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()

training_args = transformers.TrainingArguments(output_dir="out", deepspeed=args.deepspeed)
model = AutoModelForCausalLM.from_pretrained(args.model_name, device_map="auto")
trainer = transformers.Trainer(model=model, args=training_args)
trainer.train()
