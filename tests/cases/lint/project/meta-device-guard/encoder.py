import torch
from torch import nn
from transformers import CLIPVisionModel


class VisionTower(nn.Module):
    """Loads its encoder lazily; a whole-model from_pretrained builds it on the meta device first."""

    def __init__(self, name):
        super().__init__()
        self.name = name
        self.tower = None

    def load(self):
        # parameters are meta only while from_pretrained builds the model with empty weights; under ZeRO-3,
        # zero.Init gives them real (partitioned) tensors, so this branch never runs there
        on_meta = getattr(nn.Linear(1, 1, bias=False).weight, "is_meta", False)
        if on_meta:
            self.tower = CLIPVisionModel.from_pretrained(self.name, device_map="auto")
        else:
            self.tower = CLIPVisionModel.from_pretrained(self.name)
        probe = torch.empty(1)
        if probe.device.type == "meta":
            self.tower = CLIPVisionModel.from_pretrained(self.name, device_map="auto")
        if self.tower is not None and not self.tower.device.type == "meta":
            self.tower = CLIPVisionModel.from_pretrained(self.name, device_map="auto")  # runs under ZeRO-3
