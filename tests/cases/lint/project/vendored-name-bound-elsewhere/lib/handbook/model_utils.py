"""The project's own helper of the same name (an alignment-handbook copy of its own): quant storage set."""
import torch
from transformers import BitsAndBytesConfig


def get_quantization_config(model_args):
    if model_args.load_in_4bit:
        return BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)
    return None
