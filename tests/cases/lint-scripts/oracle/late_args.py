"""FastChat-style script (oracle fixture) with the model loaded before the TrainingArguments exist."""
import os

import torch
from transformers import AutoModelForCausalLM, TrainingArguments

DS_CONFIG = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1}


def main():
    model_path = os.environ["ORACLE_MODEL"]
    model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=torch.float32)
    training_args = TrainingArguments(output_dir=os.environ["ORACLE_OUT"], deepspeed=DS_CONFIG, report_to=[])
    return model, training_args


if __name__ == "__main__":
    main()
