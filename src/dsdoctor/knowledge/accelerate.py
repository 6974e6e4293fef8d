"""What ``accelerate launch`` does with a config YAML's ``deepspeed_config`` keys, per release
(``data/accelerate_launch.json.gz``, made by ``scripts/upstream/derive_accelerate_launch.py`` from the releases
``scripts/upstream/releases.py`` unpacked; see docs/upstream-data.md). Loaded on first use only. Hand-read facts
are constants here (the older ones are still the ``ACCELERATE_*`` names of :mod:`.transformers`)."""

from __future__ import annotations

import functools
from typing import Any, Dict, FrozenSet, Optional

from . import derived_data
from .versions import parse, v

DATA = derived_data.path("accelerate_launch.json.gz")

# accelerate's DeepSpeedPlugin.set_deepspeed_weakref (utils/dataclasses.py), called by Accelerator() and by
# TrainingArguments under `accelerate launch`, registers the DeepSpeed config with Transformers (an HfDeepSpeedConfig:
# is_deepspeed_zero3_enabled(), the ZeRO-3 ValueErrors and zero.Init of from_pretrained). Up to 0.34.2 only when
# zero3_init_flag is true; from 1.0.0 whatever the flag says (read in the 0.20.3, 0.25.0, 0.29.3, 0.30.1, 0.31.0,
# 0.32.1, 0.33.0, 0.34.2, 1.0.0 and 1.0.1 wheels; tests/oracle/test_zero3_init_flag_oracle.py runs 0.34.2 and 1.1.1).
ACCELERATE_REGISTERS_WITHOUT_INIT_FLAG_FROM = "1.0.0"


# The ZeRO stage of an `accelerate launch` whose YAML says DEEPSPEED but gives no zero_stage (and no
# deepspeed_config_file): launch exports no stage and DeepSpeedPlugin.__post_init__ takes
# int(os.environ.get("ACCELERATE_DEEPSPEED_ZERO_STAGE", 2)) (utils/dataclasses.py; the export is conditional from 0.17.1,
# read in the 0.17.1, 0.18.0, 0.19.0, 0.20.3, 0.34.2 and 1.9.0 sources; 0.12.0 and 0.15.0 export the string "None",
# which int() refuses: no run at all). Either way no ZeRO-3: a nested zero_optimization block is not read.
ACCELERATE_DEFAULT_ZERO_STAGE = 2


def registers_without_init_flag(accelerate: Optional[str]) -> Optional[bool]:
    """Does this accelerate register ZeRO-3 with Transformers under zero3_init_flag false? None when unknown."""
    ver = parse(accelerate)
    return None if ver is None else ver >= v(ACCELERATE_REGISTERS_WITHOUT_INIT_FLAG_FROM)


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"releases": {}})


@functools.lru_cache(maxsize=1)
def launch_arguments() -> FrozenSet[str]:
    """The option destinations of ``accelerate launch`` (``main_process_port``) in the releases read whose launch
    copies every ``deepspeed_config`` key onto its arguments: such a key sets that argument (where the command line
    does not give it), in some release at least. Empty where the data file is missing."""
    return frozenset(a for r in _data()["releases"].values() if r.get("copies") for a in r.get("args", ()))
