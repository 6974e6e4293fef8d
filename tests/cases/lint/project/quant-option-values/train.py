from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")
    bnb_bits: int = field(default=16)
    kbits: int = field(default=16)


def get_model(name, bnb_bits=16):
    # bnb_bits holds --bnb_bits (every call passes it down from model_args): 8-bit only with --bnb_bits 8
    return AutoModelForCausalLM.from_pretrained(name, load_in_8bit=bnb_bits == 8)


def build(name, bnb_bits=16):
    return get_model(name, bnb_bits=bnb_bits)


def main():
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = build(model_args.model_name_or_path, bnb_bits=model_args.bnb_bits)
    if model_args.kbits in [4, 8]:
        load_8 = model_args.kbits == 8
    else:
        load_8 = False
    reference = AutoModelForCausalLM.from_pretrained("gpt2", load_in_8bit=load_8)
    Trainer(model=model, args=training_args, eval_dataset=reference).train()


if __name__ == "__main__":
    main()
