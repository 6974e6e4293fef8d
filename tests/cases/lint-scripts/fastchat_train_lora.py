# dsdoctor-case: target=transformers==5.24.0 zero3=project
# expect: zero3-device-map-conflict@40 info
# expect: qlora-quant-storage-missing@41 info
"""Written in the style of FastChat's train_lora.py (q_lora branch sets device_map only under DDP). No --q_lora in its launch: info."""
import os
from dataclasses import dataclass, field

import transformers
from transformers import BitsAndBytesConfig, Trainer


@dataclass
class LoraArguments:
    lora_r: int = 8
    q_lora: bool = False


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="lmsys/vicuna-7b-v1.5")


def train():
    parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments, LoraArguments))
    model_args, training_args, lora_args = parser.parse_args_into_dataclasses()

    device_map = None
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    ddp = world_size != 1
    if lora_args.q_lora:
        device_map = {"": int(os.environ.get("LOCAL_RANK") or 0)} if ddp else None

    compute_dtype = (
        transformers.torch.float16 if training_args.fp16 else transformers.torch.float32
    )

    model = transformers.AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        cache_dir=training_args.cache_dir,
        device_map=device_map,
        quantization_config=BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_compute_dtype=compute_dtype,
        )
        if lora_args.q_lora
        else None,
    )
    trainer = Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    train()
