"""dsdoctor's Python API: :func:`preflight` at the top of a training script, :class:`DsDoctorError`.

``preflight()`` runs the environment checks of ``dsdoctor check`` for the running interpreter and process
environment (what DeepSpeed will see) and lints the DeepSpeed config it is given, then either returns the
:class:`~dsdoctor.model.Report` or raises one :class:`DsDoctorError` that lists every problem with its
fixes. It never imports torch, deepspeed or transformers, and reuses cached results of its subprocess
probes (``nvcc -V``, the compiler, ninja, GPUs) while the files and variables they depend on are unchanged
(see :mod:`dsdoctor.probes.cache`). See docs/api.md.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from .model import Finding, Fix, Report, Severity

if TYPE_CHECKING:
    from .hjsondoc import Document
    from .lint.rule import Rule

__all__ = ["DsDoctorError", "preflight", "format_findings"]

ConfigArg = Union[str, "os.PathLike[str]", Mapping[str, Any], None]
RaiseOn = Literal["error", "warning"]

DICT_LABEL = "<ds_config dict>"
MAX_FIXES_SHOWN = 3


class DsDoctorError(RuntimeError):
    """DeepSpeed would fail (or, with ``raise_on="warning"``, misbehave) in this environment / with this config.

    ``findings``: every finding at or above the threshold, worst first; ``report``: the whole preflight
    report (also the findings below the threshold, the facts and the cpu_adam prediction)."""

    def __init__(self, findings: Sequence[Finding], report: Optional[Report] = None) -> None:
        self.findings: List[Finding] = list(findings)
        self.report: Optional[Report] = report
        from .redact import redact  # the message may quote the environment: no secrets in tracebacks / logs

        super().__init__(redact(format_findings(self.findings, report)))

    def __reduce__(self) -> Tuple[Any, ...]:  # picklable (multiprocessing ranks report exceptions)
        return (type(self), (self.findings, self.report))


def _fix_lines(fix: Fix, n: int) -> List[str]:
    tag = "" if fix.applicability == "safe" else f" (unsafe: {fix.reason})" if fix.reason else " (unsafe)"
    lines = [f"    fix {n}: {fix.title}{tag}"]
    lines += [f"        $ {cmd}" for cmd in fix.commands]
    in_script = dict(fix.forms).get("in-script")
    if in_script:
        lines.append(f"        or in the script: {in_script}")
    return lines


def format_findings(findings: Sequence[Finding], report: Optional[Report] = None) -> str:
    """The DsDoctorError message: one numbered entry per finding (name and code, severity, where, title),
    then its top fixes with the exact commands."""
    facts = report.facts if report is not None else {}
    ctx = ", ".join(f"{k} {facts[k]}" for k in ("torch", "deepspeed", "transformers") if facts.get(k))
    where = f"python {facts.get('python_version') or '?'} ({facts.get('python') or '?'})" + (f", {ctx}" if ctx else "")
    errors = sum(f.severity is Severity.ERROR for f in findings)
    warnings = len(findings) - errors
    counts = " and ".join(p for p in (f"{errors} error(s)" if errors else "", f"{warnings} warning(s)" if warnings else "") if p)
    head = f"dsdoctor.preflight found {counts or 'no problems'} before DeepSpeed started ({where}):"
    lines = [head]
    for i, f in enumerate(findings, 1):
        loc = ""
        if f.path:
            loc = f" at {f.path}" + (f":{f.line}:{f.col}" if f.line and f.path != DICT_LABEL else "")
        lines.append("")
        lines.append(f"[{i}] {f.name} ({f.code}, {f.severity.value}){loc}: {f.title}")
        for n, fix in enumerate(f.fixes[:MAX_FIXES_SHOWN], 1):
            lines += _fix_lines(fix, n)
        if len(f.fixes) > MAX_FIXES_SHOWN:
            lines.append(f"    ... {len(f.fixes) - MAX_FIXES_SHOWN} more fix(es): see `dsdoctor check -v`")
        if not f.fixes and f.explanation:
            lines.append(f"    why: {f.explanation}")
    lines.append("")
    lines.append("Evidence and every fix: `dsdoctor check -v` (environment), `dsdoctor lint <config>` (config); "
                 "this error's .findings and .report hold them too.")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------- config


def _read_config(config: ConfigArg) -> "Tuple[Optional[Document], str]":
    """(document, label). A path is read as DeepSpeed reads it; a mapping is linted as JSON text."""
    if config is None:
        return None, ""
    from .hjsondoc import parse, read

    if isinstance(config, Mapping):
        try:
            text = json.dumps(dict(config), indent=2, default=str)
        except (TypeError, ValueError) as exc:  # e.g. non-string keys that cannot be sorted / encoded
            raise TypeError(f"dsdoctor.preflight: the config dict cannot be read as JSON: {exc}") from exc
        return parse(text, DICT_LABEL), DICT_LABEL
    if isinstance(config, (str, os.PathLike)):
        path = os.fspath(config)
        if not isinstance(path, str):
            raise TypeError("dsdoctor.preflight: config path must be a str path, not bytes")
        return read(path), path
    raise TypeError(f"dsdoctor.preflight: config must be a path, a dict or None, not {type(config).__name__}")


def _world_size(world_size: Optional[int]) -> Tuple[Optional[int], str]:
    if world_size is not None:
        return world_size, "preflight(world_size=...)"
    raw = os.environ.get("WORLD_SIZE", "")
    try:
        ws = int(raw)
    except ValueError:
        return None, ""
    return (ws, "WORLD_SIZE (set by the launcher)") if ws > 0 else (None, "")


def config_rules() -> "List[Rule]":
    """The ds_config lint rules (``dsdoctor lint``'s, listed in ``lint/config/rules.py``), without importing the
    launch and Python-script rule modules ``lint.all_rules`` also lists (a test checks both give the same rules)."""
    from .lint.config.rules import RULES

    return list(RULES)


def _lint_config(doc: "Document", label: str, report: Report, world_size: Optional[int],
                 loaded_by: Optional[str]) -> Report:
    from packaging.version import InvalidVersion, Version

    from .lint.target import Target, Usage

    usage = Usage()
    ds = report.facts.get("deepspeed")
    if ds:
        try:
            usage.ds, usage.ds_source = Version(str(ds)), "installed deepspeed"
        except InvalidVersion:
            pass
    usage.world_size, usage.world_size_source = _world_size(world_size)
    usage.loaded_by = loaded_by
    usage.loaded_by_source = "preflight(loaded_by=...)" if loaded_by else ""
    usage.accelerator = report.facts.get("accelerator") or os.environ.get("DS_ACCELERATOR")
    usage.memlock = report.facts.get("memlock_bytes")
    from .probes.cpu_fp16 import machine_cpu_fp16

    usage.cpu_fp16, usage.cpu_fp16_source = machine_cpu_fp16()
    usage.transformers = report.facts.get("transformers")
    target = Target(label, "ds_config", doc.text, usage, doc)
    linted = Report()
    for hit in (h for rule in config_rules() for h in rule.check(target)):
        f = hit.finding
        if label == DICT_LABEL:  # positions in our JSON rendering of the dict mean nothing to the user
            from dataclasses import replace

            f = replace(f, line=None, col=None)
        linted.findings.append(f)
    linted.facts = {"files": [label], "deepspeed": str(usage.ds), "deepspeed_source": usage.ds_source,
                    "world_size": usage.world_size}
    return linted


# ------------------------------------------------------------------------------------------ preflight


def preflight(
    config: ConfigArg = None,
    *,
    raise_on: RaiseOn = "error",
    world_size: Optional[int] = None,
    loaded_by: Optional[Literal["trainer", "accelerate", "deepspeed"]] = None,
    ignore: Sequence[str] = (),
    nvme: bool = False,
    cache: bool = True,
) -> Report:
    """Check this process's environment and ``config`` before DeepSpeed runs; raise one DsDoctorError
    listing every problem (with fixes) at or above ``raise_on``, else return the Report.

    ``config``: the ds_config you will train with, a path (read as DeepSpeed reads it: HJSON, duplicate keys
    rejected) or a dict; its offload settings decide the libaio / memlock checks and it is linted as
    ``dsdoctor lint`` does. ``world_size``: for the batch arithmetic (default: ``$WORLD_SIZE``, which the
    deepspeed / torchrun launchers set). ``loaded_by``: ``"trainer"`` (HF Trainer / TrainingArguments),
    ``"accelerate"`` or ``"deepspeed"`` (raw ``deepspeed.initialize``), when the config's ``"auto"`` values
    and batch checks should be judged for that loader. ``ignore``: finding names not to raise for (they
    stay in the report). ``nvme``: also check what NVMe offload needs when the config does not say.
    ``cache=False`` (or ``DSDOCTOR_NO_CACHE=1``) runs every probe.

    Raises ``DsDoctorError``; ``TypeError`` / ``ValueError`` for bad arguments. Never imports torch,
    deepspeed or transformers.
    """
    if raise_on not in ("error", "warning"):
        raise ValueError(f"dsdoctor.preflight: raise_on must be 'error' or 'warning', not {raise_on!r}")
    if isinstance(ignore, str):
        raise TypeError("dsdoctor.preflight: ignore must be a list of finding names, not a string")
    from .catalog import RULES

    unknown = [n for n in ignore if n not in RULES]
    if unknown:
        raise ValueError(f"dsdoctor.preflight: unknown finding name(s) in ignore: {', '.join(unknown)}")
    if loaded_by not in (None, "trainer", "accelerate", "deepspeed"):
        raise ValueError(f"dsdoctor.preflight: loaded_by must be 'trainer', 'accelerate', 'deepspeed' or None, not {loaded_by!r}")
    if world_size is not None and (isinstance(world_size, bool) or not isinstance(world_size, int) or world_size < 1):
        raise ValueError(f"dsdoctor.preflight: world_size must be a positive int, not {world_size!r}")

    from .checks import run_check
    from .dsconfig import OffloadIntent, offload_intent
    from .probes import cache as probe_cache

    doc, label = _read_config(config)
    intent: Optional[OffloadIntent] = None
    if doc is not None:
        intent = offload_intent(doc.data, label)
    store = probe_cache.ProbeCache() if cache and probe_cache.enabled() else None
    report = run_check(nvme=nvme, intent=intent, cache=store)
    if store is not None:
        store.save()
    if doc is not None:
        from .lint.project import merge

        merge(report, _lint_config(doc, label, report, world_size, loaded_by))
    report.facts["preflight"] = {"config": label or None, "raise_on": raise_on, "ignored": list(ignore),
                                 "cache": None if store is None else {"path": store.path, "hits": store.hits,
                                                                      "misses": store.misses}}
    from .exitcodes import at_or_above

    blocking = [f for f in at_or_above(report.findings, raise_on) if f.name not in ignore]
    if blocking:
        raise DsDoctorError(blocking, report)
    return report

