# dsdoctor-case: target=transformers==4.46.3 zero3=script
# expect: removed-transformers-deepspeed-import@12 error
# expect: ds-skip-cuda-check-ineffective@14 warning
# expect: zero3-unsafe-save@29 error
"""A raw DeepSpeed training loop in the style of DeepSpeed-Chat's step-1 script (older imports)."""
import argparse
import os

import deepspeed
import torch
from transformers import AutoModelForCausalLM
from transformers.deepspeed import HfDeepSpeedConfig

os.environ["DS_SKIP_CUDA_CHECK"] = "true"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str, default="facebook/opt-125m")
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    ds_config = {"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}
    dschf = HfDeepSpeedConfig(ds_config)  # kept: zero.Init runs for the load below
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    model.cuda()  # built under zero.Init: only the (empty) partitions move, no finding
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    engine, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, config=ds_config)
    engine.train()
    torch.save(model.state_dict(), os.path.join("out", "pytorch_model.bin"))
    del dschf


if __name__ == "__main__":
    main()
