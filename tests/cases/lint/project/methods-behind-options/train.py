from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArgs:
    use_qlora: bool = field(default=False)
    merge_after: bool = field(default=False)
    eval_loader: str = field(default="")


class Wrapper:
    def __init__(self, model_args):
        self.model_args = model_args
        self.model = AutoModelForCausalLM.from_pretrained("gpt2")

    def finish(self):
        if self.model_args.use_qlora:
            self.reload_full()
        if self.model_args.merge_after:
            self.reload_merged()
        if self.model_args.eval_loader:
            getattr(self, "reload_" + "for_eval")()

    def reload_full(self):
        self.model = AutoModelForCausalLM.from_pretrained("gpt2", device_map={"": 0})

    def reload_merged(self):
        self.model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")

    def reload_for_eval(self):
        self.model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="cpu")


model_args, args = HfArgumentParser((ModelArgs, TrainingArguments)).parse_args_into_dataclasses()
w = Wrapper(model_args)
Trainer(model=w.model, args=args).train()
w.finish()
