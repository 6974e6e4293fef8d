from dataclasses import dataclass, field

import transformers
from transformers import Trainer, TrainingArguments


@dataclass
class Extra:
    data: str = field(default="data")


def main():
    parser = transformers.HfArgumentParser((TrainingArguments, Extra))
    targs, extra = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
