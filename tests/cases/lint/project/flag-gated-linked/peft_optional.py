# The PEFT model is made only with --use_lora, which no ZeRO-3 launch passes: the non-reentrant checkpointing that
# breaks PEFT under ZeRO-3 on DeepSpeed < 0.19.3 is info here (full fine-tuning has no PEFT model).
import argparse

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--use_lora", action="store_true")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

model = AutoModelForCausalLM.from_pretrained("gpt2")
if args.use_lora:
    model = get_peft_model(model, LoraConfig(r=8))
model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
Trainer(model=model, args=training_args).train()
