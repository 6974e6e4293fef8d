"""A recipe that hard-codes its own stage-2 ds_config in TrainingArguments; the project's shared stage-3
accelerate config (configs/accelerate/) is for other trainers and no launch runs this file with it: its own
config wins, so no ZeRO-3 finding here."""
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main() -> None:
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    args = TrainingArguments("out", deepspeed="./ds_stage2.json")
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.model.save_pretrained("out")


if __name__ == "__main__":
    main()
