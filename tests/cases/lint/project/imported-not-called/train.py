from dataclasses import dataclass, field

import transformers
from chatpkg.modeling import *  # noqa: F403 - the shape this case is about


@dataclass
class Args:
    model_name: str = field(default="my-org/chat-base")


def train():
    parser = transformers.HfArgumentParser((Args, transformers.TrainingArguments))
    args, training_args = parser.parse_args_into_dataclasses()
    model = build_for_training(args.model_name)  # noqa: F405
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
    save_weights(trainer, training_args.output_dir)  # noqa: F405


if __name__ == "__main__":
    train()
