"""The current version's helper, installed with the root requirements (transformers 4.51.2)."""
from transformers.deepspeed import is_deepspeed_zero3_enabled


def zero3():
    return is_deepspeed_zero3_enabled()
