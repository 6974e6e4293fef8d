import argparse

import deepspeed
from transformers import AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=-1)
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()

with deepspeed.zero.Init(config_dict_or_path=args.deepspeed_config):
    model = AutoModelForCausalLM.from_pretrained("gpt2")
engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
engine.save_16bit_model("out")
