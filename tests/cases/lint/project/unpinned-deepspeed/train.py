from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
training_args.gradient_checkpointing = True
training_args.gradient_checkpointing_kwargs = {"use_reentrant": False}
model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
Trainer(model=model, args=training_args).train()
