from dataclasses import dataclass, field
from typing import Optional

import transformers
from peft import LoraConfig, get_peft_model
from transformers import AutoModel, Trainer


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    tune_llm: Optional[bool] = field(default=True)
    use_lora: Optional[bool] = field(default=False)


def train():
    parser = transformers.HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModel.from_pretrained("m", trust_remote_code=True)
    if training_args.use_lora:
        lora_config = LoraConfig(r=8)
        model = get_peft_model(model, lora_config)
    training_args.gradient_checkpointing_kwargs = {"use_reentrant": False}
    trainer = Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    train()
