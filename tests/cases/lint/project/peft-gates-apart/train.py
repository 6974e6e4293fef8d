"""One entry, two recipes: LoRA without gradient checkpointing, full fine-tuning with it."""
from dataclasses import dataclass, field

from accelerate import Accelerator
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser


@dataclass
class Args:
    model: str = field(default="gpt2")
    use_lora: bool = field(default=False)
    gradient_checkpointing: bool = field(default=False)


def main():
    args = HfArgumentParser(Args).parse_args_into_dataclasses()[0]
    model = AutoModelForCausalLM.from_pretrained(args.model)
    if args.use_lora:
        if args.gradient_checkpointing:
            model.gradient_checkpointing_enable()
        model = get_peft_model(model, LoraConfig(r=8))
    elif args.gradient_checkpointing:
        model.gradient_checkpointing_enable()
    model = Accelerator().prepare(model)


if __name__ == "__main__":
    main()
