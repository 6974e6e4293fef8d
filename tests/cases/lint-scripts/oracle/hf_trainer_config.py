"""A loader (oracle fixture) that keeps the Trainer's HfDeepSpeedConfig subclass, as some projects' inference and
evaluation paths do: it registers ZeRO-3 as its base does, so the load after it is partitioned."""
import os

import torch
from transformers import AutoModelForCausalLM
from transformers.integrations import HfTrainerDeepSpeedConfig

DS_CONFIG = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1}


def main():
    dschf = HfTrainerDeepSpeedConfig(DS_CONFIG)  # kept in a name: the registration lives while the model loads
    model = AutoModelForCausalLM.from_pretrained(os.environ["ORACLE_MODEL"], torch_dtype=torch.float32)
    return model, dschf


if __name__ == "__main__":
    main()
