"""A model wrapper whose from_pretrained is an instance method that loads the weights itself."""
import torch


class SlimModel:
    def __init__(self, net: torch.nn.Module) -> None:
        self.net = net

    def from_pretrained(self, path: str, device_map: str = "auto") -> None:
        self.net.load_state_dict(torch.load(path, map_location="cpu"))
        self.placement = device_map
