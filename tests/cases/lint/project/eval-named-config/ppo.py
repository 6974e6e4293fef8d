import argparse

import deepspeed
import torch
from configs import eval_config, train_config
from transformers import AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()

actor = AutoModelForCausalLM.from_pretrained("facebook/opt-125m")
reference = AutoModelForCausalLM.from_pretrained("facebook/opt-125m")
optimizer = torch.optim.AdamW(actor.parameters(), lr=1e-5)
actor_engine, *_ = deepspeed.initialize(model=actor, optimizer=optimizer, config=train_config())
reference_engine, *_ = deepspeed.initialize(model=reference, config=eval_config())
actor_engine.save_16bit_model("out")
