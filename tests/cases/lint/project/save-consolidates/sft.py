import transformers
from rlkit.trainer import FullSaveTrainer


def main():
    parser = transformers.HfArgumentParser((transformers.TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    trainer = FullSaveTrainer(model=model, args=training_args)
    trainer.train()
    trainer.save_model()


if __name__ == "__main__":
    main()
