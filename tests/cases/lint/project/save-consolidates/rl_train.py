import argparse

import deepspeed
import torch
from rlkit.checkpoint import save_full
from transformers import AutoModelForCausalLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="my-org/policy")
    parser.add_argument("--out", default="out")
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    with deepspeed.zero.Init(config_dict_or_path=args.deepspeed_config):
        model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16)
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for _ in range(10):
        loss = engine(torch.ones(1, 8, dtype=torch.long)).loss
        engine.backward(loss)
        engine.step()
    save_full(engine, args.out)


if __name__ == "__main__":
    main()
