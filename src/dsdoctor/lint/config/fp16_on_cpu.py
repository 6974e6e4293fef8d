"""fp16-on-cpu: fp16 with the CPU accelerator."""

from __future__ import annotations

from typing import Iterator

from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule
from ..target import Target, enabled


def check(t: Target) -> Iterator[Hit]:
    if t.usage.accelerator == "cpu" and enabled(t.node("fp16")) is True:
        yield RULE.hit(t, t.key_pos("fp16"), f"fp16 on the CPU accelerator: `{K.MSG_FP16_UNSUPPORTED}`")


RULE = Rule(
    name="fp16-on-cpu", kind="ds_config", severity=Severity.ERROR,
    summary="fp16 enabled for a CPU (DS_ACCELERATOR=cpu) run",
    what="fp16 enabled while the run uses DeepSpeed's CPU accelerator.",
    why="The engine raises `ValueError: Type fp16 is not supported on your device.` (bf16 and fp32 work).",
    fix="Use bf16 or fp32 on CPU.",
    check=check,
    valid=(Example('{"bf16": {"enabled": true}}', (("accelerator", "cpu"),)),),
    invalid=(Example('{"fp16": {"enabled": true}}', (("accelerator", "cpu"),)),),
)
