from pkg.rewards import score
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from trl import ModelConfig, TrlParser


def main() -> None:
    parser = TrlParser((ModelConfig, TrainingArguments))
    args, targs = parser.parse_args_and_config()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    Trainer(model=model, args=targs).train()
    print(score("done"))


if __name__ == "__main__":
    main()
