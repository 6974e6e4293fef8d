"""nvme-path-missing: device nvme without nvme_path."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...fixes import NVME_PATH_FIX as FIX  # shared with explain's same cause
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .fields import offload_device


def check(t: Target) -> Iterator[Hit]:
    for which in ("offload_param", "offload_optimizer"):
        got = offload_device(t, which)
        if got and got[0] == "nvme":
            path = got[1].get("nvme_path")
            if path is None or path.value in (None, ""):
                yield RULE.hit(t, t.key_pos("zero_optimization", which, "device"),
                               f"{which}.device is nvme but no nvme_path is set",
                               fixes=(FIX,))


RULE = Rule(
    spec(
        N.NVME_PATH_MISSING,
        "ds_config",
        Severity.ERROR,
        summary="NVMe offload without nvme_path",
        what='offload_param / offload_optimizer with "device": "nvme" and no nvme_path.',
        why="Validation passes (nvme_path defaults to None) and the swapper fails later, at engine start.",
        fix="Set nvme_path to a directory on a local NVMe drive."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": "/nvme"}}}'),),
    invalid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}}'),),
)
