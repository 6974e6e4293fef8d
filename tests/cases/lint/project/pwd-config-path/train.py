from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


def main():
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
