from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", fp16=True, deepspeed="ds_zero2_coded.json")
Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args).train()
