from transformers.deepspeed import is_deepspeed_zero3_enabled


def wrap(model):
    """Wrap ``model`` with delta modules (none here)."""
    if is_deepspeed_zero3_enabled():
        print("zero3")
    return model
