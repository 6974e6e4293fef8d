from pkg import get_model
from transformers import Trainer, TrainingArguments
from trl import ModelConfig, TrlParser


def main() -> None:
    parser = TrlParser((ModelConfig, TrainingArguments))
    args, targs = parser.parse_args_and_config()
    model = get_model(args)
    trainer = Trainer(model=model, args=targs)
    trainer.train()
    trainer.save_model("out")


if __name__ == "__main__":
    main()
