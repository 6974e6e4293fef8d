from peft import PeftModel
from transformers import AutoModelForCausalLM, HfArgumentParser  # noqa: F401 (left from an earlier version)

base = AutoModelForCausalLM.from_pretrained("facebook/opt-125m").half().cuda()
model = PeftModel.from_pretrained(base, "out/adapter")
model = model.base_model.model
model.save_pretrained("out/merged")
