from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArgs:
    model_name_or_path: str = field(default="gpt2")


def main():
    model_args, args = HfArgumentParser((ModelArgs, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
