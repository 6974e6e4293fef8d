"""Fine-tune with the Trainer."""
from transformers import HfArgumentParser, Trainer, TrainingArguments
from utils.loader import load


def main():
    (args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    model = load("meta-llama/Llama-2-7b-hf")
    ref = load("meta-llama/Llama-2-7b-hf", device="cuda")
    trainer = Trainer(model=model, args=args)
    trainer.train()
    return ref


if __name__ == "__main__":
    main()
