from model import LlamaHead
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


def main() -> None:
    (args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("base-model")
    model.head = LlamaHead(64)
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
