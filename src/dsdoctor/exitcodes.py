"""dsdoctor's exit codes, the same for every command, decided here and nowhere else.

0 clean; 1 findings at or above ``--fail-on`` (default ``error``; ``--exit-zero`` turns 1 into 0);
2 dsdoctor itself could not run (usage, unreadable input, internal error); 130 interrupted (smoke).
``launch`` exits with the launcher's own code.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, List, Sequence

if TYPE_CHECKING:
    from .model import Finding, Report


class FailOn(str, Enum):
    """``--fail-on``: the lowest severity that makes the exit code 1 (``never``: only dsdoctor failures fail)."""

    error = "error"
    warning = "warning"
    info = "info"
    never = "never"


OK = 0
FINDINGS = 1
FAILED = 2
INTERRUPTED = 130


def at_or_above(findings: "Sequence[Finding]", level: str) -> "List[Finding]":
    """The findings whose severity is at least ``level`` (a severity; ``never``: none): what fails a command
    (``--fail-on``) or blocks ``dsdoctor.preflight`` (``raise_on``)."""
    from .model import Severity

    level = str(getattr(level, "value", level))
    if level == "never":
        return []
    floor = Severity(level).rank
    return [f for f in findings if f.severity.rank >= floor]


def for_report(report: "Report", fail_on: str = "error", exit_zero: bool = False) -> int:
    """:data:`FINDINGS` when ``report`` has a finding of at least ``fail_on`` (a severity, or ``never``), else
    :data:`OK`; always OK with ``exit_zero``. :data:`FAILED` is raised as ``errors.UsageError``, not computed."""
    return OK if exit_zero or not at_or_above(report.findings, fail_on) else FINDINGS
