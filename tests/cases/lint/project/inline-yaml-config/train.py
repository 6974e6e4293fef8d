import argparse

import deepspeed
import yaml
from transformers import AutoModelForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--cfg", default="configs/base.yaml")
parser.add_argument("--local_rank", type=int, default=-1)
opts = parser.parse_args()
with open(opts.cfg) as fh:
    cfg = yaml.safe_load(fh)

model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config_params=cfg["deepspeed"])
for batch in []:
    loss = engine(batch)
    engine.backward(loss)
    engine.step()
engine.save_16bit_model("out")
