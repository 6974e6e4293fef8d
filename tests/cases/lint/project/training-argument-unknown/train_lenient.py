from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


def main():
    # options no dataclass takes are handed back, not refused
    args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
