import os
from dataclasses import dataclass, field

import transformers
from transformers import AutoModelForCausalLM
from transformers.integrations import is_deepspeed_zero3_enabled


@dataclass
class Args(transformers.TrainingArguments):
    train_mode: str = field(default="full")


def main():
    (args,) = transformers.HfArgumentParser(Args).parse_args_into_dataclasses()
    device_map = None
    if args.train_mode == "qlora":
        device_map = {"": int(os.environ.get("LOCAL_RANK", 0))}
    model = AutoModelForCausalLM.from_pretrained(
        "my-org/base", device_map=device_map, low_cpu_mem_usage=not is_deepspeed_zero3_enabled())
    transformers.Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
