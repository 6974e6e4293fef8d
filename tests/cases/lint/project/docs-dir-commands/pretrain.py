import argparse

import deepspeed
import torch
from mylib.saver import save_model

parser = argparse.ArgumentParser()
parser.add_argument("--config_path")
parser.add_argument("--enable_zero3", action="store_true")
parser.add_argument("--use_lora", action="store_true")
parser.add_argument("--local_rank", type=int, default=-1)
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()

with deepspeed.zero.Init(config_dict_or_path=args.deepspeed_config, enabled=args.enable_zero3):
    model = torch.nn.Linear(64, 64)
if args.deepspeed:
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    if args.use_lora:
        save_model(engine, "out.bin")
    else:
        engine.save_checkpoint("out")
else:
    save_model(model, "out.bin")
