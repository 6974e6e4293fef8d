"""Trains under ZeRO-3: the wrapper's loader is not Transformers'; the model class held in a variable is."""
import torch
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments
from wrapper import SlimModel


class Engine:
    def __init__(self, device_map: str) -> None:
        self.slim_model = SlimModel(torch.nn.Linear(2, 2))
        self.slim_model.from_pretrained("weights.pt", device_map=device_map)


(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
engine = Engine("auto")
model_cls = AutoModelForCausalLM
model = model_cls.from_pretrained("gpt2", device_map="auto")
trainer = Trainer(model=model, args=args)
trainer.train()
trainer.save_model()
