# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""A loader that reads the ZeRO stage from the DeepSpeed config its caller hands it (``ds_config=None`` by
default): ``ds_config is not None and ds_config["zero_optimization"]["stage"] == 3`` is true in a ZeRO-3 run (the
None check only makes sure the config is given), so the device_map load in its ``else`` never runs there; a
device_map load behind ``ds_config is None`` alone may (the caller may not pass the config)."""
import argparse

from transformers import AutoModelForCausalLM, Trainer


def build(path, ds_config=None):
    if ds_config is not None and ds_config["zero_optimization"]["stage"] == 3:
        model = AutoModelForCausalLM.from_pretrained(path)
    else:
        model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
    if ds_config is None:
        model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
    return model


parser = argparse.ArgumentParser()
parser.add_argument("--deepspeed")
args = parser.parse_args()
Trainer(model=build("gpt2", {"zero_optimization": {"stage": 3}}), args=None).train()
# expect: zero3-device-map-conflict@17 error
