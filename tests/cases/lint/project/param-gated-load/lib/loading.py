"""Loaders whose device_map depends on a parameter the caller passes."""
from transformers import AutoModelForCausalLM


def load_model(path: str, for_inference: bool = True):
    extra = {}
    if for_inference:  # every call the ZeRO-3 launch runs passes for_inference=False: info
        extra["device_map"] = "auto"
    return AutoModelForCausalLM.from_pretrained(path, **extra)


def load_reference(path: str, sharded: bool):
    extra = {}
    if sharded:  # the launch's code calls it with True: error
        extra["device_map"] = "auto"
    return AutoModelForCausalLM.from_pretrained(path, **extra)


def load_merged(path: str, base):
    if base is not None:  # a LoRA merge for serving: the launch's code passes base=None, positionally: info
        return AutoModelForCausalLM.from_pretrained(base, device_map="auto")
    return AutoModelForCausalLM.from_pretrained(path)
