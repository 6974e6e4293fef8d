"""The HF idiom of issue 18: a parameter defaulted with itself, then tested (lint once recursed without end)."""
from transformers import AutoModelForCausalLM


def load(name, device_map=None):
    device_map = device_map if device_map is not None else None
    if device_map:
        pass
    return AutoModelForCausalLM.from_pretrained(name)


def f(x=None):
    x = x if x is not None else 1
    if x:
        pass
