import transformers
from pkg.utils import Timer


def main():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    with Timer():
        transformers.Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
