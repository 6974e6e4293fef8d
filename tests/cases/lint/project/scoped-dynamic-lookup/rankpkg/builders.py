from transformers import AutoModelForCausalLM

from . import heads
from .sharding import Sharder


class Builder:
    def build(self, path, head="LinearHead"):
        model = AutoModelForCausalLM.from_pretrained(path)
        model.score = getattr(heads, head)(path)
        return Sharder.import_module(model, 0)


def parse_dtype(text):
    return eval(text)  # "torch.bfloat16" from the command line
