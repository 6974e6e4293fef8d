from trl import ModelConfig, TrlParser
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

from pkg.rewards import score


def main() -> None:
    parser = TrlParser((ModelConfig, TrainingArguments))
    args, targs = parser.parse_args_and_config()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    Trainer(model=model, args=targs).train()
    print(score("done"))


if __name__ == "__main__":
    main()
