"""Batch inference with accelerate."""
import torch
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    model = accelerator.prepare(torch.nn.Linear(4, 4))
    return model


if __name__ == "__main__":
    main()
