"""A tiny model and dataset the oracle runner scripts train with a real HF Trainer (one CPU rank): a linear layer
with a ``config.hidden_size`` (what the DeepSpeed integration reads for its "auto" bucket sizes) and a regression
loss. Imported by the runner scripts beside it, in the oracle venv (torch on its path)."""

from types import SimpleNamespace

import torch


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 1)
        self.config = SimpleNamespace(hidden_size=4)

    def forward(self, x, labels=None):
        y = self.lin(x).squeeze(-1)
        return {"loss": ((y - labels) ** 2).mean(), "logits": y}


class Data(torch.utils.data.Dataset):
    def __init__(self, n=64):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.ones(4) * (i % 3), "labels": torch.tensor(float(i % 2))}
