from transformers import HfArgumentParser, Trainer, TrainingArguments
from vlm.modeling import build_model

training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
trainer = Trainer(model=build_model("my-org/base-model"), args=training_args)
trainer.train()
trainer.save_model()
