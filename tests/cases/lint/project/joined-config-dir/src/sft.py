import argparse
import os

import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

from src.utils import RESOURCE_DIR

parser = argparse.ArgumentParser()
parser.add_argument("--deepspeed_config", default=None)
parser.add_argument("--bits", type=int, default=16)
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()

ds_file = os.path.join(RESOURCE_DIR, "configs", "ds", args.deepspeed_config) if args.deepspeed_config else None
training_args = TrainingArguments(output_dir="out", deepspeed=ds_file)
# quantized only with --bits 4 / --bits 8, which the ZeRO-3 launch does not pass
bnb = BitsAndBytesConfig(load_in_4bit=args.bits == 4, load_in_8bit=args.bits == 8)
params = {"torch_dtype": torch.bfloat16, "load_in_8bit": hasattr(args, "bits") and args.bits == 8}
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto", quantization_config=bnb, **params)
Trainer(model=model, args=training_args).train()
