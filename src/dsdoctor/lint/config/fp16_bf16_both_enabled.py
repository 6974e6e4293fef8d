"""fp16-bf16-both-enabled: fp16 and bf16 both on."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target, enabled


def check(t: Target) -> Iterator[Hit]:
    fp16 = enabled(t.node("fp16"))
    bf16 = enabled(t.node("bf16")) if t.node("bf16") is not None else enabled(t.node("bfloat16"))
    if fp16 is True and bf16 is True:
        yield RULE.hit(t, t.key_pos("bf16") or t.key_pos("bfloat16"), K.MSG_FP16_BF16)


RULE = Rule(
    spec(
        N.FP16_BF16_BOTH_ENABLED,
        "ds_config",
        Severity.ERROR,
        summary="fp16 and bf16 are both enabled",
        what='"fp16": {"enabled": true} together with "bf16": {"enabled": true}.',
        why="DeepSpeedConfig asserts `bfloat16 and fp16 modes cannot be simultaneously enabled`.",
        fix="Enable one (bf16 on Ampere or newer)."),
    check=check,
    valid=(Example('{"fp16": {"enabled": false}, "bf16": {"enabled": true}}'),),
    invalid=(Example('{"fp16": {"enabled": true}, "bf16": {"enabled": true}}'),),
)
