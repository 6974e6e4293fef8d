from transformers import AutoModelForCausalLM, TrainingArguments

args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})
a = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore[zero3-device-map-conflict]
b = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore[DS307]
c = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore
d = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # type: ignore  # dsdoctor: ignore[hostfile-invalid]
e = AutoModelForCausalLM.from_pretrained("m")  # dsdoctor: ignore[zero3-device-map-conflict] the old device_map is gone
f = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  # dsdoctor: ignore[DS307, zero3-device-map-conflit]
note = "# dsdoctor: ignore is only a comment when it is one"
g = AutoModelForCausalLM.from_pretrained("m")  # dsdoctor: ignore[DS307, unused-suppression]
# dsdoctor: ignore
h = 1
