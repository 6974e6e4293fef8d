"""The project's own SFT script, run with the ZeRO-3 accelerate config (the README's command elides the paths)."""
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
trainer = Trainer(model=model, args=args)
trainer.train()
