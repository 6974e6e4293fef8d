from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

args = TrainingArguments("out", deepspeed="ds_config.json")
model = AutoModelForCausalLM.from_pretrained("m", device_map="auto")
Trainer(model=model, args=args).train()
