# run alone on one GPU (python finetune_hf.py): no launch of the project uses the ZeRO-3 YAML with it
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", save_steps=100)
model = AutoModelForCausalLM.from_pretrained("gpt2")
Trainer(model=model, args=args).train()
