from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def train(name):
    model = AutoModelForCausalLM.from_pretrained(name, device_map="auto")
    Trainer(model=model, args=TrainingArguments("out")).train()
