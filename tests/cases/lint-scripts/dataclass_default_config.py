# dsdoctor-case: target=transformers==4.46.3 zero3=file
# expect: zero3-low-cpu-mem-usage-conflict@24 error
"""The ZeRO-3 config is only named as a dataclass default (no launch script): it is read to know the stage."""
from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer
from transformers import TrainingArguments as HFTrainingArguments


@dataclass
class TrainingArguments(HFTrainingArguments):
    deepspeed: str = field(default="ds_z3.json")


@dataclass
class ModelArguments:
    model_name_or_path: str = "m"


def main():
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        low_cpu_mem_usage=True,
    )
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
