from dataclasses import dataclass, field

from peft import PeftModel
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

from vlm.adapters import *  # noqa: F403 - the shape this case is about


@dataclass
class Args(TrainingArguments):
    use_adapters: bool = field(default=False)


args, = HfArgumentParser(Args).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("my-org/vision-chat")
if args.gradient_checkpointing:
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
if args.use_adapters:
    model = add_adapters(model, 16)  # noqa: F405
print("adapters:", isinstance(model, PeftModel))
trainer = Trainer(model=model, args=args)
trainer.train()
trainer.save_model()
