from transformers.deepspeed import is_deepspeed_zero3_enabled


def report_memory():
    return is_deepspeed_zero3_enabled()
