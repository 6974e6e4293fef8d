import torch
from transformers import AutoModelForCausalLM


def build_for_training(path):
    return AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.bfloat16, device_map="auto")


def load_for_serving(path, device=None):
    return AutoModelForCausalLM.from_pretrained(path, device_map=device or "auto", low_cpu_mem_usage=True)
