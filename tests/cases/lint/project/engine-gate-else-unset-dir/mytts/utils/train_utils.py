import json


def dtype_of(args):
    if args.train_engine == "torch_ddp":
        return "fp32"
    else:
        with open(args.deepspeed_config) as fin:
            return "bf16" if json.load(fin).get("bf16", {}).get("enabled") else "fp32"
