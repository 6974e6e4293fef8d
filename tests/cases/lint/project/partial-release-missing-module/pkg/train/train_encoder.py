"""Trains the encoder of the released part: runs."""
from transformers import AutoModel, HfArgumentParser, Trainer, TrainingArguments

from pkg.models.vision.encoder import load_encoder

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModel.from_pretrained("bert-base-uncased", device_map="auto")
trainer = Trainer(model=load_encoder("bert-base-uncased"), args=args)
trainer.train()
