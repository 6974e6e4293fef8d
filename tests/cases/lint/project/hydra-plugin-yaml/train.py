import argparse

import hydra
import torch
from accelerate import Accelerator
from omegaconf import OmegaConf

parser = argparse.ArgumentParser()
parser.add_argument("--deepspeed_plugin", default=None)
args = parser.parse_args()

plugin = hydra.utils.instantiate(OmegaConf.load(args.deepspeed_plugin)) if args.deepspeed_plugin else None
accelerator = Accelerator(deepspeed_plugin=plugin)
model = torch.nn.Linear(8, 8)
optimizer = torch.optim.AdamW(model.parameters())
model, optimizer = accelerator.prepare(model, optimizer)
