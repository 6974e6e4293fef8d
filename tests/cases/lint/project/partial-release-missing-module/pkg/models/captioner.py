"""Builds on a module of the unreleased part: importing this file stops at line 5."""
# ruff: noqa: I001  (the order of the imports is the case: the failing one comes first)
import torch

from pkg.models.blip.base import BaseModel
from transformers import AutoModelForCausalLM


class Captioner(BaseModel):
    def load(self, path: str):
        return AutoModelForCausalLM.from_pretrained(path, device_map="auto", torch_dtype=torch.bfloat16)
