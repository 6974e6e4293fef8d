import argparse

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--bits", type=int, default=8)
args, _ = parser.parse_known_args()
# --bits is left out, and its default 8 turns the 8-bit load on
model = AutoModelForCausalLM.from_pretrained("gpt2", load_in_8bit=args.bits == 8)
Trainer(model=model, args=TrainingArguments(output_dir="out", deepspeed="configs/zero3.json")).train()
