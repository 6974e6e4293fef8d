# dsdoctor-case: target=transformers==4.46.3 zero3=none
# expect: zero3-device-map-conflict@10 info
"""A Trainer script whose DeepSpeed config is not in the project: reported "if run with ZeRO-3" (info: no ZeRO-3 entry point reaches it)."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = HfArgumentParser(TrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(
    "m",
    device_map="auto",
)
Trainer(model=model, args=training_args).train()
