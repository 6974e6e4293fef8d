"""Model loading shared by training and the demo."""
from transformers import AutoModelForCausalLM


def load(path, device="cuda"):
    kwargs = {}
    if device != "cuda":
        kwargs["device_map"] = {"": device}
    return AutoModelForCausalLM.from_pretrained(path, **kwargs)
