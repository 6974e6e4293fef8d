"""The DeepSpeed config of a run: the template beside this module, filled from the run's options."""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "zero_template.json"
DATA = HERE / "labels.json"


def make_ds_config(micro_batch: int, accumulation: int, world: int) -> dict:
    with TEMPLATE.open() as fh:
        conf = json.load(fh)
    conf["train_micro_batch_size_per_gpu"] = micro_batch
    conf["gradient_accumulation_steps"] = accumulation
    conf["train_batch_size"] = micro_batch * accumulation * world
    return conf
