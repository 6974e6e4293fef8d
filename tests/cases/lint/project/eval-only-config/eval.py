import argparse

from accelerate import Accelerator
from transformers import AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="gpt2")
args = parser.parse_args()
accelerator = Accelerator()
model = accelerator.prepare(AutoModelForCausalLM.from_pretrained(args.model))
model.eval()
print(model.generate(max_new_tokens=8))
