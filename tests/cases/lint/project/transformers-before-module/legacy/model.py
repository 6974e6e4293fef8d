"""A speech model module written against an old Transformers, later given a ZeRO-3 switch."""
from transformers.deepspeed import is_deepspeed_zero3_enabled


def gathered(module):
    return is_deepspeed_zero3_enabled() and hasattr(module, "ds_id")
