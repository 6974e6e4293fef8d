"""``explain`` output: the ``diagnoses`` JSON shape (the first is the primary) and the text rendering."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, TextIO

from ..model import CONSEQUENCE, Finding, Report, Severity
from .json_out import dumps, envelope


def _line(e: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {"line": e.line, "text": e.what}
    if e.path:
        out["source"] = e.path
    if e.where and e.where != CONSEQUENCE and not e.where.startswith(str(e.path)):
        out["note"] = e.where
    return out


def raised_by_json(f: Finding) -> Dict[str, Any]:
    """Who raised the failure (an ``unknown`` answer's attribution): ``package``, ``module``, ``function`` or
    ``functions`` (a list), ``from`` (frames | message | exception class | C++ source | C++ message | NCCL error), ``releases``, ``path`` /
    ``line`` of the raising frame, ``caller`` (the user's frame that called into it), ``cut``."""
    a = dict(f.attribution)
    out: Dict[str, Any] = {k: a[k] for k in ("package", "module", "function", "from", "releases", "path") if a.get(k)}
    if a.get("functions"):
        out["functions"] = a["functions"].split("|")
    if a.get("line"):
        out["line"] = int(a["line"])
    if a.get("caller_path"):
        out["caller"] = {"path": a["caller_path"], "line": int(a.get("caller_line") or 0), "function": a.get("caller_function", "")}
    if a.get("cut"):
        out["cut"] = True
    return out


def diagnosis_json(f: Finding) -> Dict[str, Any]:
    """One diagnosis: its name, summary, the log lines seen, their consequences and the fixes (and ``raised_by``
    when explain knows who raised a failure no cause names)."""
    out: Dict[str, Any] = {
        "name": f.name,
        "code": f.code,
        "severity": f.severity.value,
        "summary": f.title,
        "explanation": f.explanation,
        "evidence": [_line(e) for e in f.evidence if e.where != CONSEQUENCE],
        "consequences": [_line(e) for e in f.evidence if e.where == CONSEQUENCE],
        "fixes": [x.to_json() for x in f.fixes],
    }
    if f.attribution:
        out["raised_by"] = raised_by_json(f)
    return out


def to_json(report: Report) -> str:
    """explain's JSON document: the diagnoses and the facts."""
    return dumps(envelope("explain", diagnoses=[diagnosis_json(f) for f in report.findings], facts=report.facts))


def render_text(report: Report, verbose: bool = False, out: Optional[TextIO] = None) -> None:
    """Root cause first (what was seen, the consequences, the fixes), then the other diagnoses."""
    from rich.markup import escape

    from .console import console, print_fixes

    con = console(out or sys.stdout)
    colors = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "blue"}
    for n, f in enumerate(report.findings):
        label = "Root cause" if n == 0 and f.severity is Severity.ERROR else ("Diagnosis" if n == 0 else "Also")
        c = colors[f.severity]
        con.print(f"[{c}]{label}:[/{c}] {escape(f.title)} [dim]\\[{f.name} {f.code}][/dim]")
        ev = [e for e in f.evidence if e.where != CONSEQUENCE]
        cons: List[Any] = [e for e in f.evidence if e.where == CONSEQUENCE]
        for e in ev[: None if verbose else 4]:
            rank = e.where[e.where.rfind(" ["):] if e.where.endswith("]") and " [" in e.where else ""
            where = (f"line {e.line}{rank}" if e.where.startswith(str(e.path)) else f"{e.where}, line {e.line}") if e.line else e.where
            con.print(f"    seen ({escape(where)}): {escape(e.what[:400])}")
        for e in cons[: None if verbose else 3]:
            con.print(f"    consequence (line {e.line}): [dim]{escape(e.what[:300])}[/dim]")
        if verbose and f.explanation:
            con.print(f"    why: {escape(f.explanation)}")
        print_fixes(con, f.fixes if (verbose or n == 0) else f.fixes[:1], verbose, 4)
        if n == 0 and len(report.findings) > 1:
            con.print("")
    if not verbose:
        con.print("[dim]Run with -v for explanations and every fix form.[/dim]")
