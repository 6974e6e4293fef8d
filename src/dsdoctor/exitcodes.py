"""dsdoctor's exit codes, the same for every command, decided here and nowhere else.

0 clean; 1 findings at or above ``--fail-on`` (default ``error``; ``--exit-zero`` turns 1 into 0);
2 dsdoctor itself could not run (usage, unreadable input, internal error); 130 interrupted (smoke).
``launch`` exits with the launcher's own code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Report

OK = 0
FINDINGS = 1
FAILED = 2
INTERRUPTED = 130


def for_report(report: "Report", fail_on: str = "error", exit_zero: bool = False) -> int:
    """:data:`FINDINGS` when ``report`` has a finding of at least ``fail_on`` (a severity, or ``never``), else
    :data:`OK`; always OK with ``exit_zero``. :data:`FAILED` is raised as ``errors.UsageError``, not computed."""
    from .model import Severity

    level = str(getattr(fail_on, "value", fail_on))
    if exit_zero or level == "never":
        return OK
    floor = Severity(level).rank
    return FINDINGS if any(f.severity.rank >= floor for f in report.findings) else OK
