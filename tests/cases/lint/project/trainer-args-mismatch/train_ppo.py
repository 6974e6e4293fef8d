from dataclasses import dataclass

from transformers import HfArgumentParser
from trl import PPOConfig, PPOTrainer


@dataclass
class ScriptArguments:
    per_device_train_batch_size: int = 16
    learning_rate: float = 1.4e-5


def main():
    (script_args,) = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()
    config = PPOConfig(learning_rate=script_args.learning_rate, batch_size=script_args.per_device_train_batch_size)
    PPOTrainer(config=config).train()


if __name__ == "__main__":
    main()
