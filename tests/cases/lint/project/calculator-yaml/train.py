from accelerate import Accelerator
from transformers import AutoModelForCausalLM

accelerator = Accelerator()
model = AutoModelForCausalLM.from_pretrained("my-org/base-model", device_map={"": accelerator.local_process_index})
model = accelerator.prepare(model)
