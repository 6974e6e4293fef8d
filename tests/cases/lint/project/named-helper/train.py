from lib.loading import ModelArguments, load_model
from transformers import HfArgumentParser, Trainer, TrainingArguments

model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
model = load_model(model_args)
Trainer(model=model, args=training_args).train()
