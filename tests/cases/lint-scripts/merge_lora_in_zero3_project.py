# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""A merge/export script living next to ZeRO-3 training scripts: it never runs under DeepSpeed (no finding)."""
import torch
from peft import PeftModel
from transformers import AutoModelForCausalLM

base = AutoModelForCausalLM.from_pretrained("base", torch_dtype=torch.float16, device_map="auto", low_cpu_mem_usage=True)
model = PeftModel.from_pretrained(base, "adapter")
model = model.merge_and_unload()
model.save_pretrained("merged")
