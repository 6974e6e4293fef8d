"""bucket-size-float: a fractional float where DeepSpeed >= 0.15 (pydantic v2) needs an int."""

from __future__ import annotations

from typing import Iterator

from packaging.version import Version

from ... import names as N
from ...fixes import bucket_int_fix as int_fix  # shared with explain's same cause
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .fields import zero


def check(t: Target) -> Iterator[Hit]:
    z = zero(t)
    if z is None or t.usage.ds < Version(K.PYDANTIC_V2_SINCE):
        return
    for m in z.members:
        field = m.key[len("stage3_"):] if m.key.startswith("stage3_") else m.key
        val = m.value.value
        if field in K.ZERO_INT_FIELDS and isinstance(val, float) and val != int(val):
            new = str(int(val))
            yield RULE.hit(t, m.value.start, f"zero_optimization.{m.key} = {val!r}: DeepSpeed {t.usage.ds} needs an integer "
                           f"(`{K.MSG_INT_FROM_FLOAT}`)",
                           fixes=(int_fix(m.key, new),),
                           edits=(Edit(t.path, m.value.start, m.value.end, new, "safe", f"{m.key}: {new}"),))


RULE = Rule(
    spec(
        N.BUCKET_SIZE_FLOAT,
        "ds_config",
        Severity.ERROR,
        summary="A fractional float for an integer ZeRO size (DeepSpeed >= 0.15)",
        what="reduce_bucket_size, allgather_bucket_size, stage3_prefetch_bucket_size, ... written with a fractional "
         "part (e.g. 0.9*h*h pasted from an old HF-filled config).",
        why="From 0.15 the ZeRO config is a pydantic v2 model and rejects `int_from_float`; older versions truncated it.",
        fix="Write the integer (safe --fix)."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "reduce_bucket_size": 5e8}}'),
           Example('{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 15099494.4}}', (("ds", "0.14.0"),))),
    invalid=(Example('{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 15099494.4}}',
                     fixed='{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 15099494}}'),),
)
