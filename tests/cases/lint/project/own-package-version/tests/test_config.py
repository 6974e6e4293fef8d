import os

import deepspeed
import torch

CONFIG = os.path.join(os.path.dirname(__file__), "eigen_config.json")


def test_eigenvalue_engine():  # run with: deepspeed --num_gpus 1 -m pytest tests/test_config.py
    model = torch.nn.Linear(8, 8)
    deepspeed.initialize(config=CONFIG, model=model, model_parameters=model.parameters())
