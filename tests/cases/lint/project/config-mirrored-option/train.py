from dataclasses import dataclass, field

from model import TowerModel
from transformers import HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")
    extra_encoder: bool = field(default=False)
    aux_tower: bool = field(default=False)


def main():
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = TowerModel.from_pretrained(model_args.model_name_or_path)
    model.initialize_towers(model_args)
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
