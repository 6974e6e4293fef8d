"""The project's ZeRO-3 entry: trains with the copied trainer and saves through it."""
from my_trainer import MyTrainer
from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
trainer = MyTrainer(model=model, args=args)
trainer.train()
trainer.save_model("out")
