import sys

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

# the model (with a device_map) comes first: ZeRO-3 is not registered yet, so Transformers does not refuse the
# device_map here; the problem to fix is the order, and the device_map refusal follows once it is fixed
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map={"": 0})
args = TrainingArguments(output_dir="out", deepspeed=sys.argv[sys.argv.index("--deepspeed") + 1])
Trainer(model=model, args=args).train()
