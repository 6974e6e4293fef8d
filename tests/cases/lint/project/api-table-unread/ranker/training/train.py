from transformers import AutoModelForSequenceClassification, HfArgumentParser, Trainer, TrainingArguments

from ranker.training.args import ModelArguments


def main():
    model_args, args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForSequenceClassification.from_pretrained(model_args.model_name_or_path, num_labels=1)
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
