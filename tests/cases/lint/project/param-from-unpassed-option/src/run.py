import sys

from transformers import HfArgumentParser, Trainer, TrainingArguments

from src.config import ModelArguments
from src.model.load_model import load_model


def main():
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_yaml_file(sys.argv[1])
    model = load_model(model_args.model_name_or_path, quantization=model_args.quantization)
    trainer = Trainer(model=model, args=training_args)
    trainer.train()
    trainer.save_model(training_args.output_dir)
    evaluator = load_model(training_args.output_dir, quantization=model_args.quantization_inference, inference=True)
    evaluator.eval()


if __name__ == "__main__":
    main()
