"""The copy's PPO example script (module-level code, no __main__ guard): nothing in the project runs it."""
from accelerate import Accelerator
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2", device_map={"": 0})
accelerator = Accelerator()
