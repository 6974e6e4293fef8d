import torch


def save_model(model, path):
    """The project's own save: the whole state dict, for runs without DeepSpeed (and LoRA weights)."""
    if hasattr(model, "module"):
        torch.save(model.module.state_dict(), path)
    else:
        torch.save(model.state_dict(), path)
