"""partial-offload-requires-stage3: offload_optimizer.ratio < 1 below stage 3."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .fields import num, offload_device, stage


def check(t: Target) -> Iterator[Hit]:
    got = offload_device(t, "offload_optimizer")
    if not got:
        return
    ratio = num(got[1].get("ratio"))
    st = stage(t)
    if ratio is not None and ratio < 1 and st is not None and st != 3:
        yield RULE.hit(t, t.key_pos("zero_optimization", "offload_optimizer", "ratio"),
                       f"offload_optimizer.ratio {ratio} with ZeRO stage {st}: `{K.MSG_PARTIAL_OFFLOAD}`")


RULE = Rule(
    spec(
        N.PARTIAL_OFFLOAD_REQUIRES_STAGE3,
        "ds_config",
        Severity.ERROR,
        summary="Partial optimizer offload (ratio < 1) outside ZeRO stage 3",
        what="zero_optimization.offload_optimizer.ratio below 1.0 with stage 0-2.",
        why="DeepSpeedZeroConfig's validator fails: `Partial offloading only supported for ZeRO Stage 3.`",
        fix="Use stage 3, or remove ratio (full offload)."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "ratio": 0.3}}}'),),
    invalid=(Example('{"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu", "ratio": 0.3}}}'),),
)
