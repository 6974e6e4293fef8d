from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


def main():
    training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("my-org/base-model")
    trainer = Trainer(model=model, args=training_args)
    trainer.train()
    trainer._save(training_args.output_dir, state_dict=trainer.model.state_dict())


if __name__ == "__main__":
    main()
