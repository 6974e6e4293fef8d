import torch
from deepspeed.ops.adam import DeepSpeedCPUAdam


def make_optimizer(kind, params, lr):
    if kind == "cpu_adam":
        return DeepSpeedCPUAdam(params, lr=lr)
    return torch.optim.AdamW(params, lr=lr)
