"""The accelerator DeepSpeed will pick: a ``DS_ACCELERATOR`` it rejects, an accelerator without cpu_adam, or
cuda auto-selected where torch sees no GPU (``ds-accelerator-invalid``)."""

from __future__ import annotations

from typing import Iterable, List

from .. import names as N
from ..fixes import (
    env_fix,
    pip_fix,
    unset_accelerator_fix,
)
from ..knowledge import deepspeed as K
from ..model import Evidence, Fix, Passed, Severity
from ..spec import Docs, FindingSpec, case
from .common import S_ACCEL, E, Result
from .context import Context
from .cpu_adam import OpPrediction

DS_ACCELERATOR_INVALID = FindingSpec(
    N.DS_ACCELERATOR_INVALID,
    E,
    "DS_ACCELERATOR is not a value this DeepSpeed accepts",
    Docs(
        what="`DS_ACCELERATOR` is not in the installed DeepSpeed's list (exact, lower-case: e.g. 0.19.8 accepts "
         "cuda, cpu, xpu, npu, mps, hpu, mlu, sdaa, supa, klxpu), or the selected accelerator has no cpu_adam "
         "(the CPU accelerator before 0.10.1; `cpu` <= 0.14.0 needs intel_extension_for_pytorch). A warning when "
         "DeepSpeed < 0.14.1 will auto-select cuda on a machine where torch sees no GPU (no CPU fallback yet).",
        why="`get_accelerator()` raises `DS_ACCELERATOR must be one of ...` for any other value, before training "
        "starts.",
        fix="Unset it to let DeepSpeed auto-detect (`unset DS_ACCELERATOR`), or use the exact lower-case value; for "
        "the CPU accelerator's missing cpu_adam, `pip install 'deepspeed>=0.10.1'`.",
        examples=(
        case("accel-tpu-invalid", "DS_ACCELERATOR=tpu with DeepSpeed 0.19.8."),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def accelerator(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    if ctx.ds is None:
        return
    acc, gpus = ctx.accelerator, ctx.facts.gpus
    if acc.name is None:
        value = ctx.env("DS_ACCELERATOR")
        allowed = K.supported_accelerators(ctx.ds)
        fixes: List[Fix] = [unset_accelerator_fix()]
        if value and value.strip().lower() in allowed:
            fixes.insert(0, env_fix("DS_ACCELERATOR", value.strip().lower(), "Use the exact lower-case value"))
        yield DS_ACCELERATOR_INVALID.finding(
            Severity.ERROR, f"DS_ACCELERATOR={value!r} will make get_accelerator() fail",
            explanation=f"DeepSpeed {ctx.ds} accepts {', '.join(allowed)}. {acc.error}",
            evidence=(Evidence(f"DS_ACCELERATOR={value!r}", "environment"),), fixes=tuple(fixes), section=S_ACCEL)
        return
    gpu_txt = f"{gpus.visible} of {gpus.count} GPU(s) visible via {gpus.source}" if gpus.count else gpus.source
    if N.DS_ACCELERATOR_INVALID in pred.blockers:  # the accelerator is valid but has no cpu_adam builder
        yield DS_ACCELERATOR_INVALID.finding(
            Severity.ERROR,
            f"DeepSpeed {ctx.ds}'s {acc.name} accelerator has no cpu_adam op ({acc.how})",
            explanation=f"`{pred.message}` The CPU accelerator gained CPUAdamBuilder in 0.10.1.",
            evidence=(Evidence(f"accelerator {acc.name}, deepspeed {ctx.ds}", "environment / package metadata"),),
            fixes=(pip_fix("deepspeed>=0.10.1", "Upgrade DeepSpeed", ctx.python_exe),), section=S_ACCEL)
        return
    yield Passed(S_ACCEL, f"DeepSpeed will use the {acc.name} accelerator ({acc.how})", gpu_txt)
    if acc.name == "cuda" and not ctx.gpu_visible and acc.how.startswith("auto-detect"):
        yield DS_ACCELERATOR_INVALID.finding(
            Severity.WARNING,
            f"DeepSpeed {ctx.ds} will select the cuda accelerator, but torch will see no GPU",
            explanation="Before 0.14.1 DeepSpeed has no CPU fallback; training will fail at the first CUDA call.",
            evidence=(Evidence(gpu_txt, gpus.source),), section=S_ACCEL)
