"""Offline: turn a ZeRO-3 checkpoint into Hugging Face weights on one process."""
import sys

from deepspeed.utils.zero_to_fp32 import get_fp32_state_dict_from_zero_checkpoint
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained(sys.argv[1], device_map="cpu", low_cpu_mem_usage=True)
model.load_state_dict(get_fp32_state_dict_from_zero_checkpoint(sys.argv[2]))
model.save_pretrained(sys.argv[3])
