"""The project's fine-tuning script: its config option defaults to the project's ZeRO-3 deepspeed.json."""
from dataclasses import dataclass

import fire
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@dataclass
class Options:
    deepspeed: str = "deepspeed.json"


def train(deepspeed: str = "deepspeed.json"):
    args = TrainingArguments(output_dir="out", deepspeed=deepspeed)
    model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model()


if __name__ == "__main__":
    fire.Fire(train)
