import transformers


def main():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    transformers.Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
