from accelerate import Accelerator
from transformers import AutoModelForCausalLM

accelerator = Accelerator()
model = accelerator.prepare(AutoModelForCausalLM.from_pretrained("gpt2"))
accelerator.unwrap_model(model).save_pretrained("out", state_dict=accelerator.get_state_dict(model))
