# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""Guarded and suppressed loads (no finding)."""
from transformers import AutoModelForCausalLM, TrainingArguments
from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled

args = TrainingArguments("out")
dm = "auto"
a = AutoModelForCausalLM.from_pretrained("m", device_map=None if is_deepspeed_zero3_enabled() else dm)
b = AutoModelForCausalLM.from_pretrained("m", low_cpu_mem_usage=not is_deepspeed_zero3_enabled())
c = AutoModelForCausalLM.from_pretrained("m", device_map=dm)  # dsdoctor: ignore[zero3-device-map-conflict]
d = AutoModelForCausalLM.from_pretrained("m", low_cpu_mem_usage=True)  # dsdoctor: ignore
