from dataclasses import dataclass, field

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class Args(TrainingArguments):
    lora: bool = field(default=False)
    tower_lora: bool = field(default=False)


args, = HfArgumentParser(Args).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("my-org/base-model")
if args.lora:
    model = get_peft_model(model, LoraConfig(r=16))
if args.gradient_checkpointing:
    if args.tower_lora:
        args.gradient_checkpointing_kwargs = {"use_reentrant": False}
    else:
        args.gradient_checkpointing_kwargs = {"use_reentrant": True}
trainer = Trainer(model=model, args=args)
trainer.train()
trainer.save_model()
