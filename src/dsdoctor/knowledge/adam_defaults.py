"""The defaults DeepSpeed's Adam optimizers give ``lr``, ``betas``, ``eps`` and ``weight_decay`` per release
(``data/adam_defaults.json.gz``, made by ``scripts/upstream/derive_adam_defaults.py`` from the released sdists; see
docs/upstream-data.md): what a config's Adam / AdamW block gets for a parameter it leaves out (``FusedAdam`` on the
GPU, ``DeepSpeedCPUAdam`` under optimizer offload). Loaded on first use, then cached; answers only about the releases
read.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Dict, Optional, Tuple

from . import derived_data
from .release_spans import Span

DATA = derived_data.path("adam_defaults.json.gz")
# the optimizer class a config's {"type": "Adam" | "AdamW"} block builds (deepspeed/runtime/engine.py
# get_optimizer_configuration, read in 0.15.4 and 0.19.8): DeepSpeedCPUAdam where ZeRO offloads the optimizer,
# torch.optim's where its params set "torch_adam" (not judged here), FusedAdam otherwise
GPU, OFFLOAD = "FusedAdam", "DeepSpeedCPUAdam"


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"releases": [], "defaults": {}, "provenance": {}})


def releases() -> Tuple[str, ...]:
    """The DeepSpeed releases read, oldest first."""
    return tuple(_data()["releases"])


def default(cls: str, key: str, ds: Optional[str]) -> Optional[object]:
    """The default ``cls`` (:data:`GPU` or :data:`OFFLOAD`) gives ``key`` on DeepSpeed ``ds`` (a list for
    ``betas``); with ``ds`` None, the one every release read gives. None where not known (outside the releases read,
    neighbours that disagree, releases that differ)."""
    values = _data()["defaults"].get(cls, {}).get(key, {})
    texts = list(values) if ds is None else [t for t, span in values.items()
                                             if Span.of("deepspeed", releases(), span).has(ds)]
    return json.loads(texts[0]) if len(texts) == 1 else None


def provenance() -> Dict[str, Any]:
    """How the data was made (script, releases read with their archives' sha256, date, how to refresh)."""
    return _data()["provenance"]  # type: ignore[no-any-return]
