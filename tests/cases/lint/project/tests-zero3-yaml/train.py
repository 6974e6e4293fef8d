from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

args = TrainingArguments("out")
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(model=model, args=args).train()
