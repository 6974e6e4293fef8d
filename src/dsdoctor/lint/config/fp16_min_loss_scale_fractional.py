"""fp16-min-loss-scale-fractional: fp16.min_loss_scale is an integer in DeepSpeed's fp16 config model."""

from __future__ import annotations

from typing import Iterator

from packaging.version import Version

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target


def check(t: Target) -> Iterator[Hit]:
    node = t.node("fp16", K.FP16_MIN_LOSS_SCALE)
    if node is None or t.usage.ds < Version(K.PRECISION_MODELS_SINCE):
        return
    val = node.value
    if isinstance(val, float) and val != int(val):
        yield RULE.hit(t, node.start, f"fp16.{K.FP16_MIN_LOSS_SCALE} = {val!r}: DeepSpeed {t.usage.ds} needs an integer "
                       f"(`{K.MSG_INT_FROM_FLOAT}`)",
                       fixes=(Fix("write an integer (1, the default: the loss scale never goes below it)", "unsafe",
                                  (f'"{K.FP16_MIN_LOSS_SCALE}": 1',)),))


RULE = Rule(
    spec(
        N.FP16_MIN_LOSS_SCALE_FRACTIONAL,
        "ds_config",
        Severity.ERROR,
        summary="fp16.min_loss_scale is a fraction, DeepSpeed's fp16 config needs an integer",
        what=f"fp16.{K.FP16_MIN_LOSS_SCALE} with a fractional part, for DeepSpeed >= {K.PRECISION_MODELS_SINCE}.",
        why=f"From {K.PRECISION_MODELS_SINCE} the fp16 block is a pydantic model (DeepSpeedFP16Config) with "
        f"{K.FP16_MIN_LOSS_SCALE}: int, so DeepSpeedConfig raises a ValidationError before training starts; older "
        "versions accepted the value.",
        fix=f"Write an integer {K.FP16_MIN_LOSS_SCALE} (1 is the default)."),
    check=check,
    valid=(Example('{"fp16": {"enabled": true, "min_loss_scale": 1}}'),
           Example('{"fp16": {"enabled": true, "min_loss_scale": 0.0001}}', (("ds", "0.16.9"),))),
    invalid=(Example('{"fp16": {"enabled": true, "min_loss_scale": 0.0001}}'),),
)
