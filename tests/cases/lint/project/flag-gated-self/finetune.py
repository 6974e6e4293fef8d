from dataclasses import dataclass, field
from typing import Optional

import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class LoadOptions:
    model_name_or_path: str
    quantize_4bit: bool = False
    qlora: bool = field(default=False)
    nested_quant: bool = True
    fp32: Optional[bool] = None

    def load_kwargs(self) -> dict:
        kwargs = {"torch_dtype": torch.float32 if self.fp32 else torch.bfloat16}
        if self.quantize_4bit:  # no launch passes --quantize_4bit: info
            kwargs["quantization_config"] = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4")
        elif self.qlora:  # the ZeRO-3 launch passes --qlora: still an error
            kwargs["quantization_config"] = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_use_double_quant=True)
        if self.nested_quant:  # on by default: no gate, an error
            kwargs["quantization_config"] = BitsAndBytesConfig(load_in_4bit=True)
        return kwargs


def main() -> None:
    opts, training_args = HfArgumentParser((LoadOptions, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(opts.model_name_or_path, **opts.load_kwargs())
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
