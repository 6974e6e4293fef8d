"""The first version's trainer: its own pyproject installs a Transformers commit of its time."""
from transformers.deepspeed import is_deepspeed_zero3_enabled


def gathered_save(model):
    return is_deepspeed_zero3_enabled() and hasattr(model, "ds_id")
