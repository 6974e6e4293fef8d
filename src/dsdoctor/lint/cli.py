"""The body of ``dsdoctor lint`` (cli.py keeps one thin command function)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, List, Optional, Sequence, TextIO, Tuple

from ..model import Report, Severity

if TYPE_CHECKING:
    from ..settings import Settings
    from . import LintResult


def run_lint(paths: List[str], world_size: Optional[int], ds_version: Optional[str], fix: bool, unsafe: bool,
             diff: bool, targets: Sequence[str] = (), python: Optional[str] = None,
             zero_stage: Optional[int] = None, sniff: bool = False,
             settings: "Optional[Settings]" = None) -> Tuple[Optional["LintResult"], int]:
    """Lint (and fix) ``paths``: the result (with ``diff_printed`` set when ``--diff`` printed the diff: the
    caller then renders nothing but exits with the shared exit code), or (None, exit code) on a usage error.
    ``sniff``: named JSON/YAML files that do not look like a DeepSpeed / accelerate config are skipped (for hooks
    that pass every changed file)."""
    from . import LintResult, lint
    from .fix import diff as make_diff
    from .fix import plan, write

    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"dsdoctor: no such file or directory: {missing[0]}", file=sys.stderr)
        return None, 2
    if sniff:
        paths = [p for p in paths if looks_linted(p)]
        if not paths:
            return LintResult(Report(facts={"files": []})), 0
    if world_size is not None and world_size <= 0:
        print("dsdoctor: --world-size must be positive", file=sys.stderr)
        return None, 2
    try:
        from .script.context import parse_targets

        parse_targets(targets)
    except ValueError as exc:
        print(f"dsdoctor: {exc}", file=sys.stderr)
        return None, 2
    res = lint(paths, world_size=world_size, ds_version=ds_version, targets=targets, python=python,
                   zero_stage=zero_stage, settings=settings)
    changes = plan(res.edits, unsafe) if (fix or diff) else {}
    changes = {p: c for p, c in changes.items() if not p.endswith(".py") or _inside(p, paths)}
    if diff:
        sys.stdout.write(make_diff(changes))
        res.diff_printed = True
        return res, 0
    if fix and changes:
        written = write(changes)
        res = lint(paths, world_size=world_size, ds_version=ds_version, targets=targets, python=python,
                   zero_stage=zero_stage, settings=settings)
        res.report.facts["fixed"] = written
    return res, 0


def looks_linted(path: str) -> bool:
    """False for a named JSON/HJSON file with no top-level key DeepSpeed reads, or a YAML file that is not an
    accelerate config (package.json, CI workflows, ...); True for everything else lint reads."""
    import re

    from ..knowledge.deepspeed import TOP_LEVEL_KEYS
    from .discover import _read, kind_of

    if os.path.isdir(path):
        return True
    kind = kind_of(path)
    text = _read(path, 2**20)
    if kind == "ds_config":
        keys = "|".join(map(re.escape, TOP_LEVEL_KEYS))
        return re.search(rf"""(?m)(?:^|[{{,\s])["']?(?:{keys})["']?\s*:""", text) is not None
    if kind == "accelerate":
        return re.search(r"(?m)^\s*(?:deepspeed_config|distributed_type|compute_environment)\s*:", text) is not None
    return True


def _inside(path: str, roots: Sequence[str]) -> bool:
    """Fixes to Python files stay inside the paths the user named (a script found through a launch file is not)."""
    p = os.path.realpath(path)
    for r in roots:
        r = os.path.realpath(r)
        if p == r or p.startswith(r.rstrip(os.sep) + os.sep):
            return True
    return False


def to_json(report: Report) -> dict:  # type: ignore[type-arg]
    keys = ("name", "code", "severity", "path", "line", "col", "title", "fixes")
    out = []
    for f in report.findings:
        d = f.to_json()
        item = {k: d.get(k) for k in keys}
        if d.get("explanation"):
            item["explanation"] = d["explanation"]
        out.append(item)
    return {"schema": 1, "command": "lint", "findings": out, "facts": report.facts}


def render(report: Report, verbose: bool, out: TextIO = sys.stdout) -> None:
    """``path:line:col: severity CODE [name] title`` per finding (ruff style): rich colours on a terminal,
    plain text when not a TTY or NO_COLOR is set."""
    from rich.markup import escape

    from ..render.console import console

    con = console(out)
    color = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "blue"}
    for f in report.findings:
        loc = f"{f.path}:{f.line or 1}:{f.col or 1}"
        c = color[f.severity]
        con.print(f"[bold]{escape(loc)}[/bold]: [{c}]{f.severity.value}[/{c}] {f.code} \\[{escape(f.name)}] {escape(f.title)}")
        if verbose and f.explanation:
            con.print(f"    why: {escape(f.explanation)}")
        for n, fx in enumerate(f.fixes if verbose else f.fixes[:1], 1):
            tag = "" if fx.applicability == "safe" else " [yellow](unsafe)[/yellow]"
            con.print(f"    fix {n}: {escape(fx.title)}{tag}")
            for c2 in fx.commands:
                con.print(f"        {escape(c2)}")
    errors = sum(f.severity is Severity.ERROR for f in report.findings)
    warnings = sum(f.severity is Severity.WARNING for f in report.findings)
    files = report.facts.get("files", [])
    tf = f", Transformers {report.facts['transformers']}" if report.facts.get("transformers") else ""
    con.print(escape(f"{len(files)} file(s) linted for DeepSpeed {report.facts.get('deepspeed')}{tf}: "
                     f"{errors} error(s), {warnings} warning(s)"))
