from transformers import AutoModelForCausalLM, TrainingArguments
from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled

args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})
a = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore[zero3-device-map-conflict]
b = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore[DS307]
c = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore
d = AutoModelForCausalLM.from_pretrained("m", device_map=None if is_deepspeed_zero3_enabled() else "auto")  # type: ignore
e = AutoModelForCausalLM.from_pretrained("m")
f = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore[DS307]
note = "# dsdoctor: ignore is only a comment when it is one"
g = AutoModelForCausalLM.from_pretrained("m")  # dsdoctor: ignore[DS307, unused-suppression]
h = 1
