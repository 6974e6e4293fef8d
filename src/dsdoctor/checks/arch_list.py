"""``TORCH_CUDA_ARCH_LIST`` as DeepSpeed's JIT builder reads it: an entry with an arch suffix (9.0a, 10.0f) or a
name that DeepSpeed >= 0.19.0 cannot parse (``cuda-arch-list-unparsed``)."""

from __future__ import annotations

from typing import Iterable

from .. import names as N
from ..fixes import arch_list_fix
from ..knowledge import deepspeed as K
from ..model import Evidence, Severity
from ..spec import Docs, FindingSpec, case
from .common import S_BUILD, E, Result
from .context import Context
from .cpu_adam import OpPrediction

CUDA_ARCH_LIST_UNPARSED = FindingSpec(
    N.CUDA_ARCH_LIST_UNPARSED,
    E,
    "TORCH_CUDA_ARCH_LIST has an entry DeepSpeed's op builds cannot parse",
    Docs(
        what="`TORCH_CUDA_ARCH_LIST` holds an entry with a letter suffix (`9.0a`, `10.0f`) or a name (`Hopper`), and "
             "the installed DeepSpeed (0.19.0 or later) builds its CUDA ops just in time with that list: every such "
             "build raises `ValueError: invalid literal for int() with base 10: '0a'` before anything compiles, and "
             "DeepSpeedCPUAdam then fails with `'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'`.",
        why="From 0.19.0 a JIT build takes the arch list from TORCH_CUDA_ARCH_LIST (it probed the GPUs before) and "
            "sorts it by `int()` of each dotted part (`op_builder/builder.py compute_capability_args`). torch itself "
            "accepts the suffixes, and images for Hopper or Blackwell often set them, so torch's own extensions "
            "build while DeepSpeed's do not. An error where cpu_adam is built for CUDA (0.19.0-0.19.7 with a GPU); "
            "a warning on 0.19.8, whose cpu_adam is a CPU op but whose fused_adam and other CUDA ops still fail.",
        fix="List the architectures without the suffix for DeepSpeed's builds, e.g. `export "
            "TORCH_CUDA_ARCH_LIST=\"9.0\"` (the suffix enables instructions DeepSpeed's ops do not use).",
        examples=(case("arch-suffix-0.19.7-gpu-fatal", "TORCH_CUDA_ARCH_LIST=9.0a, DeepSpeed 0.19.7, one GPU."),
                  case("arch-suffix-0.19.8-gpu-warning", "TORCH_CUDA_ARCH_LIST=8.0;9.0a, DeepSpeed 0.19.8, one GPU.")),
        reads="environment"),
    ("check", "verify", "explain"))


def arch_list(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    value = ctx.env("TORCH_CUDA_ARCH_LIST")
    bad = K.arch_list_unparsed(ctx.ds, value) if ctx.ds is not None and ctx.accelerator.name == "cuda" else None
    if bad is None:
        return
    if N.CUDA_ARCH_LIST_UNPARSED in pred.blockers:
        sev, hit = Severity.ERROR, "cpu_adam's JIT build will fail on it"
    elif ctx.gpu_visible:
        sev, hit = Severity.WARNING, "every CUDA op DeepSpeed builds just in time (fused_adam, ...) will fail on it"
    else:
        sev, hit = Severity.INFO, "CUDA op builds will fail on it once a GPU is visible"
    yield CUDA_ARCH_LIST_UNPARSED.finding(
        sev, f"TORCH_CUDA_ARCH_LIST entry {bad[0]!r} cannot be parsed by DeepSpeed {ctx.ds}: {hit}",
        explanation=f"DeepSpeed {ctx.ds}'s JIT builder sorts the arch list by int() of each part, and "
                    f"{K.ARCH_LIST_INT_ERROR.format(part=bad[1])} stops the build (DeepSpeed "
                    f">= {K.JIT_ARCH_LIST_INT_SINCE}; torch accepts the entry).",
        evidence=(Evidence(f"TORCH_CUDA_ARCH_LIST={value}", "environment"),), fixes=(arch_list_fix(value),),
        section=S_BUILD)
