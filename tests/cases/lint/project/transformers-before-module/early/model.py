"""The same helper in a project that pins a release the module was not in yet."""
from transformers.deepspeed import is_deepspeed_zero3_enabled


def gathered(module):
    return is_deepspeed_zero3_enabled() and hasattr(module, "ds_id")
