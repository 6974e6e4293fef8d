import argparse
import json
import os

import deepspeed
import torch

from src.utils import RESOURCE_DIR

parser = argparse.ArgumentParser()
parser.add_argument("--deepspeed_config", default=None)
parser.add_argument("--lr", type=float, default=1e-4)
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()

path = os.path.join(RESOURCE_DIR, "configs", "ds", args.deepspeed_config)
ds_config = json.load(open(path, "r", encoding="utf-8"))
ds_config["optimizer"]["params"] = {"lr": args.lr, "betas": [0.9, 0.95]}
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
engine.save_16bit_model("out")
