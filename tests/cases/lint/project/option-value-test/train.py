"""low_cpu_mem_usage chosen from the text of the --deepspeed path: off for a path naming zero3, which every
launch of the project passes."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(
    "gpt2", low_cpu_mem_usage=False if "zero3" in training_args.deepspeed else True)
trainer = Trainer(model=model, args=training_args)
trainer.train()
trainer.save_model()
