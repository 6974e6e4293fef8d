"""Generates with the trained model; takes --deepspeed_config as the training launch does, and never loads it."""
import argparse

from transformers import AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--model_path")
parser.add_argument("--deepspeed_config", default="ds_config/ds_z2.json")
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()
model = AutoModelForCausalLM.from_pretrained(args.model_path)
print(model.generate)
