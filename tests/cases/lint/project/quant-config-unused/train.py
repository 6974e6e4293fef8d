"""Full fine-tuning; a 4-bit config kept from an experiment is built but no load takes it."""
import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments

legacy_quant = BitsAndBytesConfig(
    load_in_4bit=True,
    bnb_4bit_compute_dtype=torch.bfloat16,
)


def main() -> None:
    (args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("base-model", torch_dtype=torch.bfloat16)
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
