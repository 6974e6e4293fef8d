from transformers import AutoModelForCausalLM, TrainingArguments

TrainingArguments("out")
AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
