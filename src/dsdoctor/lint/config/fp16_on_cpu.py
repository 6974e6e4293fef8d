"""fp16-on-cpu: fp16 with the CPU accelerator (which supports it only on some CPUs, from DeepSpeed 0.16.8)."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target, enabled

UNLESS = " or ".join(f.upper().replace("_", "-") for f in K.CPU_FP16_FLAGS)  # AVX512-FP16 or AMX-FP16


def check(t: Target) -> Iterator[Hit]:
    if t.usage.accelerator != "cpu" or enabled(t.node("fp16")) is not True:
        return
    pos, msg = t.key_pos("fp16"), f"`{K.MSG_FP16_UNSUPPORTED}`"
    if not K.cpu_fp16_asks_cpu(t.usage.ds):
        yield RULE.hit(t, pos, f"fp16 on the CPU accelerator of DeepSpeed {t.usage.ds}: {msg} on every CPU")
    elif t.usage.cpu_fp16 is False:
        yield RULE.hit(t, pos, f"fp16 on the CPU accelerator: {msg} ({t.usage.cpu_fp16_source})")
    elif t.usage.cpu_fp16 is None:
        where = f" ({t.usage.cpu_fp16_source})" if t.usage.cpu_fp16_source else ""
        yield RULE.hit(t, pos, f"fp16 on the CPU accelerator: {msg} unless the CPU has {UNLESS}{where}",
                       severity=Severity.WARNING)


RULE = Rule(
    spec(
        N.FP16_ON_CPU,
        "ds_config",
        Severity.ERROR,
        summary="fp16 enabled for a CPU (DS_ACCELERATOR=cpu) run",
        what="fp16 enabled while the run uses DeepSpeed's CPU accelerator: an error up to DeepSpeed 0.16.7 (no fp16 "
         f"on any CPU) and where `dsdoctor check` / `preflight()` see a CPU without {UNLESS}; a warning from "
         "`dsdoctor lint`, which cannot know the CPU the run gets.",
        why=f"DeepSpeed's CPU accelerator supports fp16 only when oneDNN does (`torch.ops.mkldnn._is_mkldnn_fp16_supported()`, "
        f"from 0.16.8: CPUs with {UNLESS}); otherwise the engine raises `{K.MSG_FP16_UNSUPPORTED}`.",
        fix='Use bf16 ({"bf16": {"enabled": true}}) or fp32 on CPU.'),
    check=check,
    valid=(Example('{"bf16": {"enabled": true}}', (("accelerator", "cpu"),)),
           Example('{"fp16": {"enabled": true}}', (("accelerator", "cpu"), ("cpu_fp16", True)),
                   "checked on a CPU with AVX512-FP16")),
    invalid=(Example('{"fp16": {"enabled": true}}', (("accelerator", "cpu"),)),
             Example('{"fp16": {"enabled": true}}', (("accelerator", "cpu"), ("ds", "0.16.7"), ("cpu_fp16", True))),
             Example('{"fp16": {"enabled": true}}', (("accelerator", "cpu"), ("cpu_fp16", False)))),
)
