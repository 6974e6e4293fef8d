"""What ``accelerate launch`` does with a config YAML's ``deepspeed_config`` keys, per release
(``data/accelerate_launch.json.gz``, made by ``scripts/upstream/derive_accelerate_launch.py`` from the releases
``scripts/upstream/releases.py`` unpacked; see docs/upstream-data.md). Loaded on first use only. (The hand-read
accelerate facts older than this file are still the ``ACCELERATE_*`` names of :mod:`.transformers`.)"""

from __future__ import annotations

import functools
from typing import Any, Dict, FrozenSet

from . import derived_data

DATA = derived_data.path("accelerate_launch.json.gz")


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"releases": {}})


@functools.lru_cache(maxsize=1)
def launch_arguments() -> FrozenSet[str]:
    """The option destinations of ``accelerate launch`` (``main_process_port``) in the releases read whose launch
    copies every ``deepspeed_config`` key onto its arguments: such a key sets that argument (where the command line
    does not give it), in some release at least. Empty where the data file is missing."""
    return frozenset(a for r in _data()["releases"].values() if r.get("copies") for a in r.get("args", ()))
