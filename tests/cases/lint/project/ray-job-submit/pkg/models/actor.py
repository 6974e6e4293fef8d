"""The policy model: built by the Ray workers with device_map left at None; the smoke test below places it."""
import deepspeed
import torch
from transformers import AutoModelForCausalLM


class Actor(torch.nn.Module):
    def __init__(self, path: str, device_map=None) -> None:
        super().__init__()
        self.model = AutoModelForCausalLM.from_pretrained(path, device_map=device_map)

    def gathered_norm(self) -> float:
        with deepspeed.zero.GatheredParameters(list(self.model.parameters())):
            return float(sum(p.norm() for p in self.model.parameters()))


if __name__ == "__main__":
    actor = Actor("gpt2", device_map="cuda")  # a smoke test: never runs when a launch imports this module
    print(actor)
