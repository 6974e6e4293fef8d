# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""Load kwargs built with a device_map that the script removes again when accelerate reports a DeepSpeed ZeRO-3
run (``kwargs.pop("device_map")`` / ``del kwargs["device_map"]`` in the branch ZeRO-3 takes, inside the same
branches as the load): no conflict. A removal behind a test that ZeRO-3 does not decide, or a load before the
removal, still receives the device_map."""
import argparse

from accelerate import Accelerator
from transformers import AutoModelForCausalLM, Trainer


def load(args, accelerator):
    if args.path is not None:
        kwargs = {"local_files_only": True, "device_map": {"": accelerator.device}}
        if accelerator.distributed_type == "DEEPSPEED" and accelerator.state.deepspeed_plugin.zero_stage == 3:
            kwargs.pop("device_map")
        model = AutoModelForCausalLM.from_pretrained(args.path, **kwargs)
        more = {"device_map": "auto"}
        if accelerator.state.deepspeed_plugin.zero_stage == 3:
            del more["device_map"]
        model = AutoModelForCausalLM.from_pretrained(args.path, **more)
        return model
    return None


def load_early(args):
    kwargs = {"device_map": "auto"}
    first = AutoModelForCausalLM.from_pretrained(args.path, **kwargs)
    if args.zero_stage == 3:
        kwargs.pop("device_map")
    return first


def load_undecided(args):
    kwargs = {"device_map": "auto"}
    if args.small:
        kwargs.pop("device_map")
    return AutoModelForCausalLM.from_pretrained(args.path, **kwargs)


parser = argparse.ArgumentParser()
parser.add_argument("--path")
parser.add_argument("--small", action="store_true")
parser.add_argument("--zero_stage", type=int, default=3)
parser.add_argument("--deepspeed")
a = parser.parse_args()
acc = Accelerator()
Trainer(model=load(a, acc) or load_early(a) or load_undecided(a), args=None).train()
# expect: zero3-device-map-conflict@27 error
# expect: zero3-device-map-conflict@35 error
