import argparse

from transformers import Trainer, TrainingArguments

from src.engine import Engine
from src.lazy import optional


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="gpt2")
    parser.add_argument("--wrapper", default="Small")
    parser.add_argument("--deepspeed")
    args = parser.parse_args()
    if optional("wandb") is None:
        print("wandb not installed: no logging")
    targs = TrainingArguments(output_dir="out/draft", deepspeed=args.deepspeed)
    model = Engine(args.wrapper, args.model).model
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
