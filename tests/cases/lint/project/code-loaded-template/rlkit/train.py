import deepspeed
import torch
from rlkit.settings import make_ds_config

net = torch.nn.Linear(4, 4)
engine, *_ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=make_ds_config(2, 4, 8))
