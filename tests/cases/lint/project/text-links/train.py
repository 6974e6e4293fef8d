import deepspeed
import torch

model = torch.nn.Linear(4, 4)
engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="configs/alias/zero2.json")
