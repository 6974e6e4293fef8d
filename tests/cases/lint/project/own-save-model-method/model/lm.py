"""The language model."""
from torch import nn
from transformers import AutoModelForCausalLM


class LM(nn.Module):
    def __init__(self, path):
        super().__init__()
        self.model = AutoModelForCausalLM.from_pretrained(path)
