import argparse

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--model_path")
parser.add_argument("--deepspeed_config")
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()
training_args = TrainingArguments(output_dir="out", bf16=True, deepspeed=args.deepspeed_config)
model = AutoModelForCausalLM.from_pretrained(args.model_path)
Trainer(model=model, args=training_args).train()
