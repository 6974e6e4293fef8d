import argparse

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

import src.models  # noqa: F401  (the package's wrappers register themselves on import)
from src.lazy import optional


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="gpt2")
    parser.add_argument("--deepspeed")
    args = parser.parse_args()
    if optional("wandb") is None:
        print("wandb not installed: no logging")
    targs = TrainingArguments(output_dir="out/draft", deepspeed=args.deepspeed)
    model = AutoModelForCausalLM.from_pretrained(args.model)
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
