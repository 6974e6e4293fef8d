# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-device-map-conflict@69 info
# expect: zero3-low-cpu-mem-usage-conflict@76 error
# expect: zero3-unsupported-quantization@71 info
"""Written in the style of Qwen's finetune.py (dataclass arguments, q_lora device_map branch, GPTQ). No --q_lora in the launch: info."""
import logging
import os
from dataclasses import dataclass, field
from typing import Optional

import torch
import transformers
from transformers import GPTQConfig, Trainer
from transformers.integrations import deepspeed


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default="Qwen/Qwen-7B")


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    cache_dir: Optional[str] = field(default=None)
    model_max_length: int = field(default=8192)
    use_lora: bool = False


@dataclass
class LoraArguments:
    lora_r: int = 64
    q_lora: bool = False


def train():
    global local_rank

    parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments, LoraArguments))
    (
        model_args,
        training_args,
        lora_args,
    ) = parser.parse_args_into_dataclasses()

    if getattr(training_args, "deepspeed", None) and int(os.environ.get("WORLD_SIZE", 1)) == 1:
        training_args.distributed_state.distributed_type = "DEEPSPEED"

    local_rank = training_args.local_rank

    device_map = None
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    ddp = world_size != 1
    if lora_args.q_lora:
        device_map = {"": int(os.environ.get("LOCAL_RANK") or 0)} if ddp else "auto"
        if len(training_args.fsdp) > 0 or deepspeed.is_deepspeed_zero3_enabled():
            logging.warning("FSDP or ZeRO3 are incompatible with QLoRA.")

    config = transformers.AutoConfig.from_pretrained(
        model_args.model_name_or_path,
        cache_dir=training_args.cache_dir,
        trust_remote_code=True,
    )
    config.use_cache = False

    model = transformers.AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        config=config,
        cache_dir=training_args.cache_dir,
        device_map=device_map,
        trust_remote_code=True,
        quantization_config=GPTQConfig(
            bits=4, disable_exllama=True
        )
        if training_args.use_lora and lora_args.q_lora
        else None,
        low_cpu_mem_usage=True,
    )
    tokenizer = transformers.AutoTokenizer.from_pretrained(
        model_args.model_name_or_path,
        cache_dir=training_args.cache_dir,
        model_max_length=training_args.model_max_length,
        padding_side="right",
        use_fast=False,
        trust_remote_code=True,
    )
    trainer = Trainer(model=model, tokenizer=tokenizer, args=training_args)
    trainer.train()
    trainer.save_state()
    torch.cuda.empty_cache()


if __name__ == "__main__":
    train()
