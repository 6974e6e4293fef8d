"""Chinese-LLaMA-Alpaca-style loader (oracle fixture): low_cpu_mem_usage from a dataclass default via **kwargs."""
import os
from dataclasses import dataclass, field

import torch
from transformers import LlamaForCausalLM, TrainingArguments

DS_CONFIG = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1}


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="")
    low_cpu_mem_usage: bool = field(default=True, metadata={"help": "load with less CPU memory"})


def main():
    model_args = ModelArguments(os.environ["ORACLE_MODEL"])
    training_args = TrainingArguments(output_dir=os.environ["ORACLE_OUT"], deepspeed=DS_CONFIG, report_to=[])
    load_kwargs = dict(torch_dtype=torch.float32)
    load_kwargs["low_cpu_mem_usage"] = model_args.low_cpu_mem_usage
    model = LlamaForCausalLM.from_pretrained(model_args.model_name_or_path, **load_kwargs)
    return model, training_args


if __name__ == "__main__":
    main()
