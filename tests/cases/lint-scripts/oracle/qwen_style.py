"""Qwen-style loader (oracle fixture): device_map from a q_lora branch, low_cpu_mem_usage=True."""
import os

import torch
from transformers import AutoModelForCausalLM, TrainingArguments

DS_CONFIG = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1}


def main():
    training_args = TrainingArguments(output_dir=os.environ["ORACLE_OUT"], deepspeed=DS_CONFIG, report_to=[])
    q_lora = True  # the QLoRA branch puts the model on this rank's device
    device_map = {"": "cpu"} if q_lora else None
    model = AutoModelForCausalLM.from_pretrained(
        os.environ["ORACLE_MODEL"],
        device_map=device_map,  # per-rank placement
        torch_dtype=torch.float32,
        low_cpu_mem_usage=True,
    )
    return model, training_args


if __name__ == "__main__":
    main()
