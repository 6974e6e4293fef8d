"""ds-config-removed-feature: a config section for a feature this DeepSpeed removed (it refuses to start)."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .fields import zero


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object":
        return
    ds = t.usage.ds
    for key in K.removed_top_level(ds):
        m = root.member(key)
        if m is not None:
            yield RULE.hit(t, m.start, f"{key!r} was removed from DeepSpeed: {ds} raises DeepSpeedConfigError",
                           fixes=(Fix(f"delete the {key!r} section (or pin deepspeed<0.19.7)", "unsafe"),))
    z = zero(t)
    for key in K.removed_zero(ds) if z else ():
        m = z.member(key) if z else None
        if m is not None:
            yield RULE.hit(t, m.start, f"zero_optimization.{key} was removed: DeepSpeed {ds} raises DeepSpeedConfigError",
                           fixes=(Fix(f"delete {key!r}", "unsafe"),))


RULE = Rule(
    spec(
        N.DS_CONFIG_REMOVED_FEATURE,
        "ds_config",
        Severity.ERROR,
        summary="A section for a feature the installed DeepSpeed removed",
        what="Top-level amp, nebula, sparse_attention, compression_training, ... and zero_optimization.mics_* / "
         "zeropp_loco_param, per the installed version's removal list (0.19.7+).",
        why="DeepSpeedConfig raises DeepSpeedConfigError naming the removed feature before anything runs.",
        fix="Delete the section (the feature is gone) or pin an older DeepSpeed."),
    check=check,
    valid=(Example('{"amp": {"enabled": true}}', (("ds", "0.19.6"),)),),
    invalid=(Example('{"train_batch_size": 8, "amp": {"enabled": true}}'),
             Example('{"zero_optimization": {"stage": 3, "mics_shard_size": 8}}')),
)
