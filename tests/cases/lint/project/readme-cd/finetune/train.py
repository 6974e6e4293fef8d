from dataclasses import dataclass, field

import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    use_lora: bool = field(default=False)
    bits: int = field(default=16)


def save_full(trainer, out_dir):
    weights = trainer.model.state_dict()
    trainer._save(out_dir, state_dict={k: v.cpu() for k, v in weights.items()})


model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(
    "my-org/base-model",
    load_in_8bit=model_args.bits == 8,
    quantization_config=BitsAndBytesConfig(load_in_4bit=model_args.bits == 4) if model_args.use_lora else None,
    torch_dtype=torch.bfloat16,
)
trainer = Trainer(model=model, args=training_args)
trainer.train()
save_full(trainer, training_args.output_dir)
