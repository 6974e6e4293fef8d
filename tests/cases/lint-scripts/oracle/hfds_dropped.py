"""A raw-DeepSpeed-style loader (oracle fixture) that builds an HfDeepSpeedConfig and drops it at once."""
import os

import torch
from transformers import AutoModelForCausalLM
from transformers.integrations import HfDeepSpeedConfig

DS_CONFIG = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1}


def main():
    HfDeepSpeedConfig(DS_CONFIG)  # meant to switch on zero.Init for the load below
    model = AutoModelForCausalLM.from_pretrained(os.environ["ORACLE_MODEL"], torch_dtype=torch.float32)
    return model, None


if __name__ == "__main__":
    main()
