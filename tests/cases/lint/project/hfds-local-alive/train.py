"""Two HfDeepSpeedConfig locals: run() builds the model (through a class of another module) while its local is
alive; setup() returns first, freeing its local before anything is built."""
import json
import sys

import deepspeed
from build import Net
from transformers.integrations import HfDeepSpeedConfig


def setup(path):
    ds_config = json.load(open(path))
    dschf = HfDeepSpeedConfig(ds_config)  # noqa: F841 - freed when setup() returns: an error
    return ds_config


def run(path):
    ds_config = json.load(open(path))
    dschf = HfDeepSpeedConfig(ds_config)  # noqa: F841 - alive while run() builds the model
    model = Net({"name": "gpt2"})
    engine, *_ = deepspeed.initialize(model=model, config=ds_config)
    return engine


if __name__ == "__main__":
    cfg = setup(sys.argv[-1])
    run(sys.argv[-1])
