"""Reads a Python config file and `key value` overrides into attribute sections."""
import runpy
from types import SimpleNamespace


def _ns(d):
    return SimpleNamespace(**{k: _ns(v) if isinstance(v, dict) else v for k, v in d.items()})


def load_config(path, overrides):
    cfg = {k: v for k, v in runpy.run_path(path).items() if not k.startswith("__")}
    for key, value in zip(overrides[::2], overrides[1::2]):
        *sections, last = key.split(".")
        d = cfg
        for s in sections:
            d = d[s]
        d[last] = value == "True" if value in ("True", "False") else value
    return _ns(cfg)
