"""One output path for every command that reports findings: ``--format`` dispatch and exit codes.

Exit codes, the same for every command: 0 clean, 1 findings at or above ``--fail-on`` (default ``error``),
2 dsdoctor itself failed (usage, unreadable input, internal error). ``--exit-zero`` turns 1 into 0.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Any, Mapping, Optional, Sequence

from .model import Finding, Report, Severity


class Format(str, Enum):
    """``--format``: rich text (plain when not a TTY or NO_COLOR), versioned JSON, SARIF 2.1.0, GitHub annotations."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class FailOn(str, Enum):
    """``--fail-on``: the lowest severity that makes the exit code 1 (``never``: only dsdoctor failures fail)."""

    error = "error"
    warning = "warning"
    info = "info"
    never = "never"


def exit_code(report: Report, fail_on: FailOn = FailOn.error, exit_zero: bool = False) -> int:
    """0 or 1 for a report (2 is for dsdoctor's own failures, decided by the caller)."""
    if exit_zero or fail_on is FailOn.never:
        return 0
    floor = Severity(fail_on.value).rank
    return 1 if any(f.severity.rank >= floor for f in report.findings) else 0


def render(report: Report, command: str, fmt: Format, verbose: bool = False,
           edits: Optional[Mapping[Finding, Sequence[Any]]] = None) -> Optional[str]:
    """The output of ``command`` in ``fmt`` as a string, or None for text (printed directly by rich).
    ``edits``: lint's text edits per finding (SARIF ``fixes``)."""
    if fmt is Format.json:
        if command == "lint":
            import json

            from .lint.cli import to_json as lint_json

            return json.dumps(lint_json(report), indent=2, default=str)
        if command == "explain":
            from .explain.output import to_json as explain_json

            return explain_json(report)
        from .render.json_out import render as render_json

        return render_json(report, command)
    if fmt is Format.sarif:
        from . import __version__
        from .render.sarif import render as render_sarif

        return render_sarif(report, command, __version__, edits)
    if fmt is Format.github:
        from .render.github import render as render_github

        return render_github(report, command)
    return None


def emit(report: Report, command: str, fmt: Format, verbose: bool = False,
         edits: Optional[Mapping[Finding, Sequence[Any]]] = None) -> None:
    """Write ``report`` to stdout in ``fmt`` (machine formats print nothing else on stdout)."""
    out = render(report, command, fmt, verbose, edits)
    if out is not None:
        sys.stdout.write(out if out.endswith("\n") or not out else out + "\n")
        return
    if command == "lint":
        from .lint.cli import render as render_lint

        render_lint(report, verbose)
    elif command == "explain":
        from .explain.output import render_text as render_explain

        render_explain(report, verbose=verbose)
    else:
        from .render.text import render as render_text

        render_text(report, verbose=verbose)
