"""The copy's helper: a 4-bit config (no quant storage) when the caller's ModelConfig asks for one."""
from typing import Optional

from accelerate.utils import is_deepspeed_available
from transformers import BitsAndBytesConfig

if is_deepspeed_available():
    import deepspeed  # noqa: F401


def get_quantization_config(model_config) -> Optional[BitsAndBytesConfig]:
    if model_config.load_in_4bit:
        quantization_config = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_compute_dtype=model_config.torch_dtype,
            bnb_4bit_quant_type=model_config.bnb_4bit_quant_type,
        )
    else:
        quantization_config = None
    return quantization_config


def get_kbit_device_map():
    return {"": 0}
