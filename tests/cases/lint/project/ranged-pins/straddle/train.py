"""Fine-tune a causal LM (synthetic fixture: written for dsdoctor's tests)."""
from transformers import AutoModelForCausalLM
from transformers.deepspeed import is_deepspeed_zero3_enabled

model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto", low_cpu_mem_usage=False)
print(is_deepspeed_zero3_enabled())
