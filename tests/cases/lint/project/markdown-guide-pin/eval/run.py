from transformers.deepspeed import is_deepspeed_zero3_enabled

print(is_deepspeed_zero3_enabled())
