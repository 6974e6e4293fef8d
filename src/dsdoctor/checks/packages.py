"""Checks of the checked environment itself: torch and deepspeed installed (``package-missing``), and every
probe that hung, crashed or printed garbage (``probe-failed``)."""

from __future__ import annotations

from typing import Iterable

from .. import names as N
from ..fixes import (
    pip_fix,
)
from ..model import Evidence, Passed, Severity
from ..spec import Docs, FindingSpec, case
from .common import S_PKG, S_SYS, E, Result, W
from .context import Context
from .cpu_adam import OpPrediction

PACKAGE_MISSING = FindingSpec(
    N.PACKAGE_MISSING,
    E,
    "torch or deepspeed is not installed in the checked environment",
    Docs(
        what="torch or deepspeed is not installed in the checked environment: `--python`, else the interpreter "
         "running dsdoctor, unless that one has no torch and the active virtualenv / conda env or the first "
         "`python3` on PATH has (dsdoctor installed with pipx or in a venv of its own).",
        why="Nothing can be predicted or built without them; often the wrong interpreter was checked.",
        fix="Install it into that environment (`python -m pip install deepspeed`), or point `--python` at the "
        "training environment's interpreter.",
        examples=(
        case("package-missing-deepspeed", "An environment with torch but no deepspeed."),
    ),
        reads="environment"),
    ("check",))


def packages(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    pk = ctx.facts.packages
    where = ctx.python_exe or "?"
    interp = ctx.facts.interpreter
    chosen = interp.chosen if interp else ""  # why a virtualenv / conda env was taken instead of dsdoctor's own
    for name in ("torch", "deepspeed"):
        if pk.version(name) is None and not (name == "torch" and pk.torch):
            yield PACKAGE_MISSING.finding(
                Severity.ERROR, f"{name} is not installed for {where}",
                explanation=f"dsdoctor checks the environment of {where}{f' ({chosen})' if chosen else ''}; "
                            "pass --python to check another one.",
                evidence=(Evidence(f"no {name} distribution on sys.path", where),),
                fixes=(pip_fix(name, f"Install {name}", ctx.python_exe),), section=S_PKG)
    if pk.torch:
        kind = f"CUDA {pk.torch.cuda}" if pk.torch.cuda else (f"ROCm {pk.torch.hip}" if pk.torch.hip else "CPU build")
        parts = [f"torch {pk.torch.version} ({kind})"]
        parts += [f"{n} {pk.version(n)}" for n in ("deepspeed", "transformers", "accelerate", "peft") if pk.version(n)]
        note = f" ({chosen}; --python to choose)" if chosen else ""
        yield Passed(S_PKG, ", ".join(parts), f"python {interp.short if interp else '?'}: {where}{note}")


PROBE_FAILED = FindingSpec(
    N.PROBE_FAILED,
    W,
    "A probe of the environment failed (hung, crashed or printed garbage)",
    Docs(
        what="A probe of the environment hung (killed at its timeout), crashed, or printed something dsdoctor "
         "cannot parse: e.g. `nvcc -V` that hangs or prints garbage, a damaged torch/version.py, unreadable "
         "package metadata. Named, never a traceback.",
        why="dsdoctor could not read this fact, so checks that depend on it are less certain. DeepSpeed runs the "
        "same tool and will likely fail the same way.",
        fix="Run the named probe yourself (the finding shows the command and its output) and repair what it reads: "
        "the toolkit under CUDA_HOME, the package installation.",
        examples=(
        case("fault-nvcc-hangs", "`$CUDA_HOME/bin/nvcc` hangs: the probe is killed at its timeout and reported as "
                                 "`probe 'nvcc -V' failed`."),
    ),
        reads="environment"),
    ("check",))


def probe_failures(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    for fail in ctx.facts.failures:
        yield PROBE_FAILED.finding(
            Severity.WARNING, f"probe '{fail.probe}' failed: {fail.reason}",
            evidence=(Evidence(fail.reason, fail.where),), section=S_SYS)
