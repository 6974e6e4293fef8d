import os

import deepspeed
import torch
from deepspeed.runtime.config import DeepSpeedConfig

CONFIG = os.path.join(os.path.dirname(__file__), "ds_batch.json")


def test_batch_config():
    assert DeepSpeedConfig(CONFIG, world_size=2).train_micro_batch_size_per_gpu == 1


def test_engine():  # run with: deepspeed --num_gpus 2 -m pytest tests/test_batch.py
    model = torch.nn.Linear(8, 8)
    deepspeed.initialize(config=CONFIG, model=model, model_parameters=model.parameters())
