# low_cpu_mem_usage only where the launch does not use DeepSpeed: the launcher (and TrainingArguments with a
# DeepSpeed config) sets ACCELERATE_USE_DEEPSPEED=true, so under ZeRO-3 the load gets None. The second load reads
# another variable: under ZeRO-3 it passes True and raises.
import os

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments
from transformers.utils import strtobool

training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(
    "gpt2",
    low_cpu_mem_usage=True if not strtobool(os.environ.get("ACCELERATE_USE_DEEPSPEED", "false")) else None,
)
other = AutoModelForCausalLM.from_pretrained(
    "gpt2",
    low_cpu_mem_usage=True if not strtobool(os.environ.get("USE_FSDP", "false")) else None,
)
Trainer(model=model, args=training_args).train()
