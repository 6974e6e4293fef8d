# dsdoctor-case: target=transformers==4.46.3 zero3=none
"""An inference script with no DeepSpeed or Trainer at all: device_map="auto" is right here (no finding)."""
from transformers import AutoModelForCausalLM, AutoTokenizer

model = AutoModelForCausalLM.from_pretrained("m", device_map="auto", low_cpu_mem_usage=True)
tok = AutoTokenizer.from_pretrained("m")
