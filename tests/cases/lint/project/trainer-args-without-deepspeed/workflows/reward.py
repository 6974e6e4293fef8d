from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


def run(name):
    model = AutoModelForSequenceClassification.from_pretrained(name)
    args = TrainingArguments(output_dir="reward-out", bf16=True)  # no deepspeed: this Trainer runs without it
    Trainer(model=model, args=args).train()
