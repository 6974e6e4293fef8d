from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArgs:
    use_lora: bool = field(default=False)
    use_qlora: bool = field(default=False)


class Wrapper:
    def __init__(self, model_args):
        self.model_args = model_args
        self.model = AutoModelForCausalLM.from_pretrained("gpt2")

    def merge(self):
        if self.model_args.use_lora and not self.model_args.use_qlora:
            return self.model
        elif self.model_args.use_qlora:
            self.reload_full()

    def reload_full(self):
        self.model = AutoModelForCausalLM.from_pretrained("gpt2", device_map={"": 0})


model_args, args = HfArgumentParser((ModelArgs, TrainingArguments)).parse_args_into_dataclasses()
w = Wrapper(model_args)
Trainer(model=w.model, args=args).train()
w.merge()
