"""What ``dsdoctor explain --env`` (and ``verify``) add from the environment checks: check's evidence and its
environment-specific fixes for a cause the log shows, check's own errors when the log shows none."""

from __future__ import annotations

from typing import List

from .. import names as N
from ..model import Evidence, Finding, Report, Severity
from .causes import ENV_CAUSES

# ENV_CAUSES: causes an environment check can confirm (same names in check and explain; from the cause specs)
NEUTRAL = (N.NO_FAILURE, N.UNKNOWN, N.OP_BUILD_FAILED_CAUSE_NOT_IN_LOG, N.TORCH_EXTENSIONS_LOCK_STALE)


def merge_reports(report: Report, checked: Report) -> None:
    """Attach what the environment checks (``checked``: a ``dsdoctor check`` report, run by the command) confirm:
    check's evidence and its (environment-specific) fixes for a cause the log shows; check's own errors first when
    the log shows no cause."""
    by_name = {f.name: f for f in checked.findings if f.name in ENV_CAUSES}
    merged: List[Finding] = []
    for f in report.findings:
        c = by_name.pop(f.name, None)
        if c is not None:
            ev = f.evidence + tuple(Evidence(e.what, f"dsdoctor check: {e.where}") for e in c.evidence)
            f = Finding(f.name, f.severity, f.title + " (confirmed by the environment check)", f.explanation + " " + c.explanation,
                        ev, c.fixes or f.fixes, f.section, f.path, f.line)
        merged.append(f)
    extra = [c for c in by_name.values() if c.severity is Severity.ERROR or c.name == N.TORCH_EXTENSIONS_LOCK_STALE]
    extra = [Finding(c.name, c.severity, c.title + " (found by the environment check, not in the log)", c.explanation,
                     tuple(Evidence(e.what, f"dsdoctor check: {e.where}") for e in c.evidence), c.fixes, "explain")
             for c in extra]
    if merged and merged[0].name in NEUTRAL and extra:
        report.findings = extra + merged
    else:
        report.findings = merged + extra
    report.facts["primary"] = report.findings[0].name
    report.facts["environment"] = checked.facts
