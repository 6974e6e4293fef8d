"""The copy's value-head wrapper: a device_map only when its caller asks for a quantized model."""
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def load_with_value_head(path, load_in_8bit=False):
    device_map = "auto" if load_in_8bit else None
    return AutoModelForCausalLM.from_pretrained(path, device_map=device_map, load_in_8bit=load_in_8bit)


def prepare(model):
    return Accelerator().prepare(model)
