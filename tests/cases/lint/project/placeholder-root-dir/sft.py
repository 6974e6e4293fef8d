from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


def main():
    (args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-1.3b", device_map="auto")
    trainer = Trainer(model=model, args=args)
    trainer.train()


if __name__ == "__main__":
    main()
