"""Oracle helper, run with the provisioned venv + a Transformers stack on PYTHONPATH: each stdin line is a config dict
(JSON); for each it instantiates ``AutoModelForCausalLM.from_config`` on the meta device (no download,
no memory) and prints DeepSpeed's ``model_to_params`` view of each: unique total and largest module."""

import json
import sys

import torch
from transformers import AutoConfig, AutoModelForCausalLM


def count(cfg_dict):
    d = dict(cfg_dict)
    cfg = AutoConfig.for_model(d.pop("model_type"), **d)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(cfg)
    # model.parameters() yields a shared (tied) Parameter once, as model_to_params' data_ptr dedup does
    # on a real device (meta tensors all report data_ptr 0, so dedup by identity here)
    total = sum(p.numel() for p in model.parameters())
    largest = max(sum(p.numel() for p in m.parameters(recurse=False)) for m in model.modules())
    return {"total": total, "largest_layer": largest}


def main():
    print("READY", flush=True)
    for line in sys.stdin:
        try:
            res = count(json.loads(line))
        except Exception as exc:  # reported per case
            res = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
