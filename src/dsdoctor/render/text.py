"""Text rendering, flutter-doctor style: one line per section (✓ / ! / ✗), details with -v."""

from __future__ import annotations

import sys
from typing import Dict, List, TextIO, Union

from ..model import Finding, Passed, Report, Severity

SECTION_ORDER = ("Packages", "Accelerator", "CUDA toolkit", "JIT op build", "System")
MARK = {None: ("✓", "green"), Severity.INFO: ("i", "blue"), Severity.WARNING: ("!", "yellow"), Severity.ERROR: ("✗", "red")}


def render(report: Report, verbose: bool = False, out: TextIO = sys.stdout) -> None:
    from rich.markup import escape

    from .console import console, print_fixes

    con = console(out)
    sections: Dict[str, List[Union[Finding, Passed]]] = {name: [] for name in SECTION_ORDER}
    items_all: List[Union[Finding, Passed]] = [*report.passed, *report.findings]
    for item in items_all:
        sections.setdefault(item.section, []).append(item)
    for section, items in sections.items():
        if not items:
            continue
        finds = [i for i in items if isinstance(i, Finding)]
        worst = max((f.severity for f in finds), key=lambda s: s.rank, default=None)
        mark, color = MARK[None if worst is Severity.INFO else worst]
        con.print(f"[{color}][{mark}][/{color}] [bold]{escape(section)}[/bold]")
        for p in (i for i in items if isinstance(i, Passed)):
            con.print(f"    • {escape(p.title)}" + (f" [dim]({escape(p.detail)})[/dim]" if verbose and p.detail else ""))
        for f in sorted(finds, key=lambda x: -x.severity.rank):
            if f.severity is Severity.INFO and not verbose:
                con.print(f"    • [dim]{escape(f.title)}[/dim]")
                continue
            m, c = MARK[f.severity]
            loc = f"{f.path}:{f.line or 1}:{f.col or 1}: " if f.path else ""
            con.print(f"    [{c}]{m}[/{c}] {escape(loc + f.title)} [dim]\\[{f.name} {f.code}][/dim]")
            if verbose:
                for e in f.evidence:
                    con.print(f"        seen: {escape(e.what)}" + (f" [dim]({escape(e.where)})[/dim]" if e.where else ""))
                if f.explanation:
                    con.print(f"        why:  {escape(f.explanation)}")
            print_fixes(con, f.fixes if verbose else f.fixes[:2], verbose, 8)
    linted = report.facts.get("lint") or {}
    if linted.get("assumed"):
        here = report.facts.get("deepspeed")
        differs = str(linted.get("deepspeed_source", "")).startswith("pinned") and here and here != linted.get("deepspeed")
        note = f" (this environment has deepspeed {here})" if differs else ""
        con.print(escape(f"\nproject lint assumed {', '.join(linted['assumed'])}{note}"))
    errors = sum(f.severity is Severity.ERROR for f in report.findings)
    warnings = sum(f.severity is Severity.WARNING for f in report.findings)
    pred = report.predictions.get("cpu_adam")
    if pred and pred.get("path"):
        verdict = "will load" if pred["loads"] else f"will FAIL ({', '.join(pred['blockers'])})"
        con.print(f"\ncpu_adam ({pred.get('accelerator')} accelerator, {pred.get('path')}): {verdict}")
    if errors or warnings:
        con.print(f"{errors} error(s), {warnings} warning(s)." + ("" if verbose else " Run with -v for evidence and all fixes."))
    else:
        con.print("No issues found.")
