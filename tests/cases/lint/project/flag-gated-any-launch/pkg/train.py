from dataclasses import dataclass, field

import torch
import transformers
from transformers import AutoModelForCausalLM


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    bits: int = field(default=16, metadata={"help": "How many bits to use."})


def train(path="gpt2"):
    parser = transformers.HfArgumentParser((TrainingArguments,))
    training_args, = parser.parse_args_into_dataclasses()
    extra = {}
    if training_args.bits in [4, 8]:
        from transformers import BitsAndBytesConfig
        extra.update(dict(
            device_map={"": training_args.device},
            quantization_config=BitsAndBytesConfig(load_in_4bit=training_args.bits == 4),
        ))
    model = AutoModelForCausalLM.from_pretrained(
        path,
        torch_dtype=torch.bfloat16,
        low_cpu_mem_usage=False,
        **extra,
    )
    transformers.Trainer(model=model, args=training_args).train()
