from encoder import VisionTower
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
tower = VisionTower("openai/clip-vit-large-patch14")
tower.load()
Trainer(model=model, args=training_args).train()
