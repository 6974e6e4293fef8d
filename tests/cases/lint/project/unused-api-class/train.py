import transformers
from rankpkg import Builder


def main():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = Builder().build("my-org/base")
    transformers.Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
