"""Trains a small forecaster with accelerate; its DeepSpeed settings come from ds_config.json."""
import argparse

import torch
from accelerate import Accelerator, DeepSpeedPlugin
from torch.utils.data import DataLoader, TensorDataset


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=16)
    args = parser.parse_args()
    plugin = DeepSpeedPlugin(hf_ds_config="./ds_config.json")
    accelerator = Accelerator(deepspeed_plugin=plugin)
    model = torch.nn.Linear(32, 1)
    data = TensorDataset(torch.randn(256, 32), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=args.batch_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
