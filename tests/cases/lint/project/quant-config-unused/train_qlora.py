"""QLoRA fine-tuning: the 4-bit config is handed to the load."""
import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments

quant = BitsAndBytesConfig(
    load_in_4bit=True,
    bnb_4bit_compute_dtype=torch.bfloat16,
)


def main() -> None:
    (args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("base-model", quantization_config=quant,
                                                 torch_dtype=torch.bfloat16)
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
