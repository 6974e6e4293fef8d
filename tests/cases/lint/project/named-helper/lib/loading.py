"""The model loading train.py imports: no Trainer or DeepSpeed here, yet it runs in the ZeRO-3 launch's process."""
from dataclasses import dataclass

from transformers import AutoModelForCausalLM, BitsAndBytesConfig


@dataclass
class ModelArguments:
    model_name: str = "gpt2"
    load_8bit: bool = False


def load_model(args: ModelArguments) -> AutoModelForCausalLM:
    quant = None
    if args.load_8bit:  # no ZeRO-3 launch passes --load_8bit: a warning when this file is named alone
        quant = BitsAndBytesConfig(load_in_8bit=True)
    return AutoModelForCausalLM.from_pretrained(args.model_name, quantization_config=quant, device_map="auto")
