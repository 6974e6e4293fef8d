# dsdoctor: ignore-file[zero3-device-map-conflict]
from transformers import AutoModelForCausalLM, TrainingArguments

args = TrainingArguments("out", deepspeed="ds.hjson")
a = AutoModelForCausalLM.from_pretrained("m", device_map="auto")
b = AutoModelForCausalLM.from_pretrained("m", device_map={"": 0})
