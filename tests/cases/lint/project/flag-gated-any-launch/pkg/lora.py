from dataclasses import dataclass, field

import transformers
from transformers import AutoModelForCausalLM


@dataclass
class LoraArguments(transformers.TrainingArguments):
    bits: int = field(default=16)


def train():
    training_args, = transformers.HfArgumentParser((LoraArguments,)).parse_args_into_dataclasses()
    extra = {}
    if training_args.bits in [4, 8]:
        extra.update(device_map={"": training_args.device})
    model = AutoModelForCausalLM.from_pretrained("gpt2", low_cpu_mem_usage=False, **extra)
    transformers.Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    train()
