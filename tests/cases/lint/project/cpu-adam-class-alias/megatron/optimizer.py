"""The optimizer factory."""
import torch


def get_optimizer(model, args):
    if args.cpu_optimizer:
        from deepspeed.ops.adam import DeepSpeedCPUAdam
        opt_cls = DeepSpeedCPUAdam
    else:
        opt_cls = torch.optim.AdamW
    return opt_cls(model.parameters(), lr=1e-4, weight_decay=0.01)
