"""Environment checks: probes -> facts -> rules (with knowledge) -> a Report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Mapping, Optional

from ..dsconfig import OffloadIntent
from ..errors import UsageError
from ..model import Finding, Passed, Report
from ..probes.environment import EnvFacts, collect
from ..probes.interpreter import Interpreter
from . import all_checks, context
from .cpu_adam import predict
from .system_limits import system

if TYPE_CHECKING:
    from ..probes.cache import ProbeCache


def evaluate(facts: EnvFacts, nvme: bool = False, intent: Optional[OffloadIntent] = None) -> Report:
    """Decide on already-collected facts (pure: no I/O)."""
    ctx = context.build(facts)
    pred = predict(ctx)
    report = Report()
    results = [r for rule in all_checks.RULES for r in rule(ctx, pred)]
    intent = intent or OffloadIntent()
    if nvme and not intent.nvme:
        intent = OffloadIntent(nvme=True, offload=True, pin_memory=intent.pin_memory, source=intent.source)
    results += list(system(ctx, pred, intent))
    for r in results:
        if isinstance(r, Finding):
            report.findings.append(r)
        elif isinstance(r, Passed):
            report.passed.append(r)
    report.findings.sort(key=lambda f: -f.severity.rank)
    report.predictions["cpu_adam"] = pred.to_json()
    report.facts = summarize(ctx)
    return report


def run_check(
    python: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
    nvme: bool = False,
    interp: Optional[Interpreter] = None,
    intent: Optional[OffloadIntent] = None,
    cache: "Optional[ProbeCache]" = None,
) -> Report:
    """``dsdoctor check``: probe the environment of ``python`` (default: this interpreter) and decide.
    ``cache`` reuses stored subprocess probe results (``dsdoctor.preflight``; ``check`` always probes)."""
    return evaluate(collect(python, env, interp, cache), nvme=nvme, intent=intent)


def installed_versions(facts: EnvFacts) -> Dict[str, str]:
    """The installed versions (public part: ``2.5.1`` of ``2.5.1+cu121``) of the packages whose releases
    ``explain``'s API answers read (the API history's, and numpy), as the environment's metadata says."""
    from ..knowledge import api_history

    out = {}
    for name in (*api_history.packages(), "numpy"):
        ver = facts.packages.version(name)
        if ver:
            out[name] = ver.split("+")[0]
    return out


def summarize(ctx: context.Context) -> dict:  # type: ignore[type-arg]
    f = ctx.facts
    return {
        "python": f.interpreter.executable if f.interpreter else None,
        "python_version": f.interpreter.short if f.interpreter else None,
        "python_chosen": f.interpreter.chosen if f.interpreter and f.interpreter.chosen else None,
        "torch": ctx.torch_version,
        "torch_cuda": ctx.torch_cuda_str,
        "torch_hip": f.packages.torch.hip if f.packages.torch else None,
        "deepspeed": str(ctx.ds) if ctx.ds else None,
        "transformers": f.packages.version("transformers"),
        "accelerate": f.packages.version("accelerate"),
        "peft": f.packages.version("peft"),
        "cuda_home": f.cuda_home.path,
        "cuda_home_source": f.cuda_home.source,
        "nvcc": "%d.%d" % f.nvcc.release if f.nvcc and f.nvcc.release else None,
        "other_toolkits": {o.path: "%d.%d" % o.release for o in f.other_toolkits if o.release},
        "accelerator": ctx.accelerator.name,
        "accelerator_how": ctx.accelerator.how,
        "gpus_visible": f.gpus.visible,
        "gpu_probe": f.gpus.source,
        "ninja_module": f.ninja.module_dir,
        "ninja_executable": f.ninja.executable,
        "compiler": f.compiler.path,
        "python_h": f.python_h,
        "memlock_bytes": f.limits.memlock_soft,
        "shm_bytes": f.limits.shm_bytes,
        "env": {k: f.env[k] for k in sorted(f.env) if k in _ENV_SHOWN},
    }


_ENV_SHOWN = frozenset({
    "CUDA_HOME", "CUDA_PATH", "DS_ACCELERATOR", "DS_SKIP_CUDA_CHECK", "TORCH_EXTENSIONS_DIR", "CUDA_VISIBLE_DEVICES",
    "TORCH_CUDA_ARCH_LIST", "CXX", "CC", "DS_BUILD_OPS", "DS_ENV_FILE",
})


class InputError(UsageError):
    """A ``--python`` that cannot be queried or a ``--ds-config`` that cannot be read (the message says which)."""


def resolve_inputs(python: Optional[str], ds_config: Optional[str]) -> "tuple[Optional[Interpreter], Optional[OffloadIntent]]":
    """The interpreter to check (None: this one) and the offload the config asks for, as every command that runs
    the environment checks reads them (``check``, ``report``); raises :class:`InputError`."""
    intent = None
    if ds_config:
        from ..dsconfig import ConfigError, load, offload_intent

        try:
            intent = offload_intent(load(ds_config), ds_config)
        except ConfigError as exc:
            raise InputError(str(exc)) from exc
    interp = None
    if python is not None:
        from ..probes.interpreter import query
        from ..probes.run import ProbeFailure

        got = query(python)
        if isinstance(got, ProbeFailure):
            raise InputError(f"cannot use --python {python}: {got.reason}")
        interp = got
    return interp, intent
