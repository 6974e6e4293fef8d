import transformers
from pkg.pipelines import PIPELINES


def main():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    PIPELINES["finetune"](model, training_args).run()


if __name__ == "__main__":
    main()
