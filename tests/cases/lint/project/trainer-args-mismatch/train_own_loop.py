import deepspeed
import transformers


class LoopTrainer:
    """The project's own loop: it hands the config to deepspeed.initialize itself (no HF Trainer, no check)."""

    def __init__(self, model, args):
        self.engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=args.deepspeed)


def main():
    (args,) = transformers.HfArgumentParser(transformers.TrainingArguments).parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    LoopTrainer(model, args)


if __name__ == "__main__":
    main()
