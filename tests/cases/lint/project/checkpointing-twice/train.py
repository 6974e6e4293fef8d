"""Non-reentrant checkpointing enabled, turned off around a sample generation, and enabled again the same way:
one problem of the run (one finding, the second call is its evidence)."""
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
model = get_peft_model(model, LoraConfig(r=8))


def sample(model):
    model.gradient_checkpointing_disable()
    out = model.generate(max_new_tokens=8)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    return out


sample(model)
Trainer(model=model, args=args).train()
