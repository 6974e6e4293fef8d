from typing import Optional

import torch
from peft import prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def load_model(name: str, quantization: Optional[int] = None, inference: bool = False):
    """Quantized only when the caller's option asks for it."""
    if isinstance(quantization, str):
        quantization = int(quantization)
    bnb_config = None
    if quantization is not None:
        if quantization == 4:
            bnb_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
        else:
            bnb_config = BitsAndBytesConfig(load_in_8bit=True)
    model = AutoModelForCausalLM.from_pretrained(name, quantization_config=bnb_config, torch_dtype=torch.bfloat16)
    if quantization is not None and not inference:
        model = prepare_model_for_kbit_training(model)
    return model
