"""``dsdoctor lint``: DeepSpeed configs, accelerate YAML references, hostfiles, .deepspeed_env and launch commands.

Rules live one per module under ``lint/config`` (ds_config) and ``lint/launch`` (launch files), each a
:class:`~dsdoctor.lint.rule.Rule` with docs and valid/invalid examples; ``all_rules`` registers them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from packaging.version import InvalidVersion, Version

from ..model import Finding, Report
from .rule import Edit, Hit, rules_for
from .target import Target, Usage


@dataclass
class LintResult:
    report: Report
    edits: List[Edit] = field(default_factory=list)
    files: List[str] = field(default_factory=list)
    fix_edits: Dict[Finding, List[Edit]] = field(default_factory=dict)  # the edits that fix each finding (SARIF fixes)


def installed_deepspeed() -> Optional[str]:
    """DeepSpeed's version from package metadata (never imported)."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        return version("deepspeed")
    except PackageNotFoundError:
        return None


def memlock_limit() -> Optional[int]:
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_MEMLOCK)
        return None if soft == resource.RLIM_INFINITY else int(soft)
    except (ImportError, OSError, ValueError):
        return None


def lint_target(t: Target) -> List[Hit]:
    hits: List[Hit] = []
    for rule in rules_for(t.kind):  # type: ignore[arg-type]
        hits.extend(rule.check(t))
    return hits


def make_target(path: str, kind: str, usage: Usage) -> Target:
    if kind == "python":
        from .script import make_target as script_target

        return script_target(path, usage)
    if kind == "ds_config":
        from .reader import read

        doc = read(path)
        return Target(path, kind, doc.text, usage, doc)
    from .discover import _read

    return Target(path, kind, _read(path, 16 * 2**20), usage)


def lint(paths: Sequence[str], world_size: Optional[int] = None, ds_version: Optional[str] = None,
         loaded_by: Optional[str] = None, max_depth: Optional[int] = None, targets: Sequence[str] = (),
         python: Optional[str] = None, zero_stage: Optional[int] = None) -> LintResult:
    """Lint the named files/directories (and the ds_configs, hostfiles and .deepspeed_env they reference)."""
    from .discover import scan
    from .launch._files import env_file_vars

    found = scan(list(paths), max_depth)
    ver = ds_version or installed_deepspeed()
    base = Usage()
    if ver:
        try:
            base.ds = Version(ver)
            base.ds_source = "--ds-version" if ds_version else "installed deepspeed"
        except InvalidVersion:
            pass
    base.world_size, base.world_size_source = (world_size, "--world-size") if world_size else \
        (found.world_size, found.world_size_source)
    base.client_optimizer, base.saves_16bit = found.client_optimizer, found.saves_16bit
    base.multinode = found.multinode
    base.accelerator = found.accelerator or os.environ.get("DS_ACCELERATOR")
    base.memlock = memlock_limit()
    env_files = [p for p, k in found.kinds.items() if k == "deepspeed_env"]
    if not env_files and os.path.isfile(".deepspeed_env"):
        env_files.append(".deepspeed_env")
    for p in env_files:
        from .discover import _read

        base.env_file_vars.update(env_file_vars(_read(p)))
    if any(k == "python" for k in found.kinds.values()):
        from .script.setup import python_usage

        python_usage(base, found.kinds, targets, python, zero_stage)
    result = LintResult(Report())
    configs: Dict[str, Target] = {}
    for path, kind in sorted(found.kinds.items(), key=lambda pk: (pk[1] == "accelerate", pk[0])):
        if kind == "accelerate":
            result.files.append(path)
            if kind == "accelerate":
                from .accelerate import lint_yaml
                from .discover import _read

                result.report.findings += lint_yaml(path, _read(path), base, configs)
            continue
        if kind == "ds_config" and not os.path.exists(path):
            continue
        usage = Usage(**{**base.__dict__, "env_file_vars": base.env_file_vars})
        usage.loaded_by = loaded_by or found.loaded_by.get(path)
        target = make_target(path, kind, usage)
        if kind == "ds_config":
            configs[path] = target
        hits = lint_target(target)
        result.files.append(path)
        for h in hits:
            result.report.findings.append(h.finding)
            resolved = [_resolve(e, path) for e in h.edits]
            result.edits.extend(resolved)
            if resolved:
                result.fix_edits.setdefault(h.finding, []).extend(resolved)
    result.report.findings.sort(key=lambda f: (f.path or "", f.line or 0, f.col or 0))
    result.report.facts = {"deepspeed": str(base.ds), "deepspeed_source": base.ds_source,
                           "world_size": base.world_size, "world_size_source": base.world_size_source,
                           "files": result.files}
    if base.transformers or base.zero3 is not None:  # what the Python script verdicts assumed
        result.report.facts.update(transformers=base.transformers, transformers_source=base.transformers_source,
                                   zero3=base.zero3, zero3_source=base.zero3_source)
    return result


def _resolve(e: Edit, origin: str) -> Edit:
    if e.start < 0:  # an append to .deepspeed_env beside the launch script (the launcher reads it from the cwd)
        target = os.path.join(os.path.dirname(origin), e.path)
        return Edit(target, -1, -1, e.new, e.applicability, e.title)
    return e


def apply_edits(edits: Sequence[Edit], unsafe: bool = False) -> Dict[str, "tuple[str, str]"]:
    """New text per file (old, new); non-overlapping edits, applied back to front."""
    from .fix import plan

    return plan(edits, unsafe)
