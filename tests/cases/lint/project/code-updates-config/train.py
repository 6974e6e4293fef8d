import argparse
import json
import os

import deepspeed
import torch
from transformers import AutoModelForCausalLM
from transformers.integrations import HfDeepSpeedConfig


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deepspeed", default="ds_config.json")
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    ds_config = json.load(open(args.deepspeed, "r"))
    # the script fills three "auto" values itself; steps_per_print stays "auto"
    ds_config.update(**{"train_micro_batch_size_per_gpu": args.batch_size, "gradient_accumulation_steps": 1})
    ds_config.update(gradient_clipping=1.0)
    hfds = HfDeepSpeedConfig(ds_config)  # kept: zero.Init for the load
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config_params=ds_config)
    # under ZeRO-3 the engine gathers the weights first: no finding
    if engine.zero_optimization_partition_weights():
        state_dict = engine._zero3_consolidated_16bit_state_dict()
    else:
        state_dict = engine.module.state_dict()
    torch.save(state_dict, os.path.join("out", "pytorch_model.bin"))
    del hfds


if __name__ == "__main__":
    main()
