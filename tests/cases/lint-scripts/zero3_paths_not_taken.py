# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""Paths a ZeRO-3 run never takes: an eval-only branch behind a parameter that defaults to False, a value
chosen on the run's --deepspeed argument, a ZeRO-3 test through a module alias that raises, the stage compared
with a number, a try whose except loads again without the device_map, and an early return under DeepSpeed."""
import argparse

import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer
from transformers.integrations import deepspeed as hf_ds


def load(path, eval_mode=False, auto_map=False):
    device_map = "auto" if auto_map else None
    if eval_mode:
        return AutoModelForCausalLM.from_pretrained(path, device_map="auto")
    return AutoModelForCausalLM.from_pretrained(path, device_map=device_map)


def quantized(path, args):
    if hf_ds.is_deepspeed_zero3_enabled():
        raise ValueError("8-bit is not supported with ZeRO-3")
    q = BitsAndBytesConfig(load_in_8bit=True)
    return AutoModelForCausalLM.from_pretrained(path, quantization_config=q)


def on_deepspeed_arg(path, args):
    placement = None if args.deepspeed else {"": 0}
    if args.zero_stage < 3:
        placement = "auto"
    return AutoModelForCausalLM.from_pretrained(path, device_map=placement)


def with_fallback(path):
    try:
        model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
    except ValueError:
        model = AutoModelForCausalLM.from_pretrained(path)
    return model


def save(trainer, out):
    if trainer.deepspeed:
        trainer.save_model(out)
        return
    state = trainer.model.state_dict()
    torch.save(trainer.model.state_dict(), out)
    trainer.model.save_pretrained(out, state_dict=state)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--deepspeed", default=None)
    p.add_argument("--zero_stage", type=int, default=0)
    a = p.parse_args()
    m = load("m")
    on_deepspeed_arg("m", a)
    quantized("m", a)
    with_fallback("m")
    t = Trainer(model=m)
    t.train()
    save(t, "out")
