import json
from pathlib import Path

HERE = Path(__file__).absolute().parent
TRAIN_FILE = HERE / "ds_train_config.json"
EVAL_FILE = HERE / "ds_eval_config.json"


def train_config() -> dict:
    with TRAIN_FILE.open() as f:
        cfg = json.load(f)
    return cfg


def eval_config() -> dict:
    with EVAL_FILE.open() as f:
        cfg = json.load(f)
    return cfg
