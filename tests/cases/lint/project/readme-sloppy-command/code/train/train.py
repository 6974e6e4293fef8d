from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArgs:
    model_name_or_path: str = field(default="gpt2")


margs, targs = HfArgumentParser((ModelArgs, TrainingArguments)).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(margs.model_name_or_path, device_map="auto")
Trainer(model=model, args=targs).train()
