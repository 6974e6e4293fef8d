from dataclasses import dataclass, field

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForSequenceClassification, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class StsArguments:
    model: str = field(default="bert-base-uncased")
    keep_checkpoints: bool = field(default=True)


sts_args, training_args = HfArgumentParser((StsArguments, TrainingArguments)).parse_args_into_dataclasses()
if not sts_args.keep_checkpoints:
    training_args.save_strategy = "no"
model = get_peft_model(AutoModelForSequenceClassification.from_pretrained(sts_args.model), LoraConfig())
Trainer(model=model, args=training_args).train()
