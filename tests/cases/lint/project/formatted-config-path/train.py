"""Stage-wise training: the DeepSpeed config is chosen from the model name and the stage."""
import argparse

import deepspeed
import torch
from transformers.integrations import HfDeepSpeedConfig

parser = argparse.ArgumentParser()
parser.add_argument("--model", type=str)
parser.add_argument("--stage", type=int)
parser.add_argument("--save_path", type=str)
parser.add_argument("--local_rank", type=int, default=0)
args = vars(parser.parse_args())
args["ds_config_path"] = f'dsconfig/{args["model"]}_stage_{args["stage"]}.json'
keep = HfDeepSpeedConfig(args["ds_config_path"])
model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                       config_params=keep.config)
