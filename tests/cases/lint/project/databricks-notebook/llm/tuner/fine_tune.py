import json
from dataclasses import dataclass, field
from typing import Optional

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class RunArguments:
    output_dir: str = field(default="out")
    deepspeed_config: Optional[str] = field(default=None)


def main():
    (args,) = HfArgumentParser(RunArguments).parse_args_into_dataclasses()
    with open(args.deepspeed_config) as fh:
        ds = json.load(fh)
    training_args = TrainingArguments(args.output_dir, deepspeed=ds, bf16=True)
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
