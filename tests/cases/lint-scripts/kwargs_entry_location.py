# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-device-map-conflict@12 error
"""The device_map is set in a kwargs entry that always runs; a later branch clears it for CPU runs only. The
finding points at the entry that sets it (the receiving call is named), and the fix rewrites that entry."""
import transformers
from transformers import AutoModelForCausalLM


def load(args):
    kwargs = {
        "torch_dtype": "auto",
        "device_map": {"": args.local_rank},
    }
    if args.use_cpu:
        kwargs["device_map"] = None
    return AutoModelForCausalLM.from_pretrained("m", **kwargs)


if __name__ == "__main__":
    (a,) = transformers.HfArgumentParser((transformers.TrainingArguments,)).parse_args_into_dataclasses()
    load(a)
