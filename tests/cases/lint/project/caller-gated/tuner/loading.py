"""Model helpers the training script imports by name."""
from transformers import AutoModelForCausalLM


def load(path: str):
    return AutoModelForCausalLM.from_pretrained(path)


def merge_adapter(path: str, out: str) -> None:
    # a device_map load: every call sits under `if opts.merge_after`, which the ZeRO-3 launch does not pass: info
    model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
    model.save_pretrained(out)


def export_copy(path: str, out: str) -> None:
    # the same load, called without any option: an error under the ZeRO-3 launch
    model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
    model.save_pretrained(out)
