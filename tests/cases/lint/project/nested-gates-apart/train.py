"""LoRA recipes may load the base model in 8 bits; --int8 also picks the 8-bit optimizer of a full fine-tune."""
from dataclasses import dataclass, field

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class Args:
    model: str = field(default="gpt2")
    use_peft: bool = field(default=False)
    int8: bool = field(default=False)


def main():
    args, targs = HfArgumentParser((Args, TrainingArguments)).parse_args_into_dataclasses()
    if args.use_peft:
        if args.int8:
            model = AutoModelForCausalLM.from_pretrained(args.model, load_in_8bit=True)
        else:
            model = AutoModelForCausalLM.from_pretrained(args.model)
        model = get_peft_model(model, LoraConfig(r=8))
    else:
        model = AutoModelForCausalLM.from_pretrained(args.model)
        targs.optim = "adamw_bnb_8bit" if args.int8 else "adamw_torch"
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
