"""The ``dsdoctor explain`` command behind the thin CLI function: read, diagnose, merge ``check``, render."""

from __future__ import annotations

import time
from typing import List, Optional, Sequence, Tuple

from .. import names as N
from ..model import Evidence, Finding, Report, Severity
from .causes import ENV_CAUSES
from .diagnose import diagnose_scan, scan_sources
from .match import Scanner
from .reader import MAX_LINE_BYTES, InputError, Source, StdinRaw, expand, open_binary

FOLLOW_POLL_S = 0.5
# ENV_CAUSES: causes an environment check can confirm (same names in check and explain; from the cause specs)
NEUTRAL = (N.NO_FAILURE, N.UNKNOWN, N.OP_BUILD_FAILED_CAUSE_NOT_IN_LOG, N.TORCH_EXTENSIONS_LOCK_STALE)


def explain_paths(paths: List[str], *, env: bool = False, python: Optional[str] = None) -> Report:
    """Explain files / directories / ``-``; with ``env`` merge what ``dsdoctor check`` confirms."""
    sources = expand(paths)
    report = diagnose_scan(scan_sources(sources))
    report.facts["sources"] = [s.name for s in sources]
    if env:
        merge_env(report, python)
    return report


def merge_env(report: Report, python: Optional[str]) -> None:
    """Attach what the environment checks confirm: check's evidence and its (environment-specific) fixes
    for a cause the log shows; check's own errors first when the log shows no cause."""
    from ..checks import run_check

    merge_reports(report, run_check(python))


def merge_reports(report: Report, checked: Report) -> None:
    """``merge_env`` on an already-run check report."""
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


def follow(paths: List[str], seconds: Optional[float] = None, poll: float = FOLLOW_POLL_S) -> Report:
    """Watch live logs; return as soon as a cause (or a finished traceback) appears, or after ``seconds``
    (Ctrl-C also stops and reports what was seen). One scanner per log, so rank files stay separate."""
    sources = expand(paths)
    watched = []
    for i, src in enumerate(sources):
        sc = Scanner()
        sc.start_source(src.name, i)
        watched.append((sc, src, open_binary(src), bytearray()))
    t0 = time.monotonic()
    try:
        while True:
            grew = False
            for sc, src, fh, carry in watched:
                data = _read_available(fh, src)
                if not data:
                    continue
                grew = True
                carry.extend(data)
                last = carry.rfind(b"\n")
                if last >= 0:
                    sc.feed_chunk(bytes(carry[:last + 1]))
                    del carry[:last + 1]
                if len(carry) > MAX_LINE_BYTES:
                    sc.feed_chunk(bytes(carry[:MAX_LINE_BYTES]) + b"\n")
                    carry.clear()
            if any(_failed(sc) for sc, _, _, _ in watched):
                break
            if seconds is not None and time.monotonic() - t0 > seconds:
                break
            if _all_closed(watched):
                break
            if not grew:
                time.sleep(poll)
    except KeyboardInterrupt:
        pass
    finally:
        for _, src, fh, _ in watched:
            if src.path is not None:
                fh.close()
    for sc, _, _, carry in watched:
        if carry:
            sc.feed_chunk(bytes(carry))
        sc.end_source()
    pick = next((sc for sc, _, _, _ in watched if sc.hits), None) or next(
        (sc for sc, _, _, _ in watched if _failed(sc)), watched[0][0])
    report = diagnose_scan(pick)
    report.facts["followed_s"] = round(time.monotonic() - t0, 1)
    return report


def _failed(sc: Scanner) -> bool:
    return bool(sc.hits) or any(t.exc_text for t in sc.tracebacks) or bool(sc.symptoms)


def _read_available(fh: "object", src: Source) -> bytes:
    if isinstance(fh, StdinRaw):
        return fh.read_available(1 << 20)
    return fh.read(1 << 20) or b""  # type: ignore[attr-defined]


def _all_closed(watched: "Sequence[Tuple[Scanner, Source, object, bytearray]]") -> bool:
    """Every followed source is a pipe that reached its end (files can still grow)."""
    return all(isinstance(fh, StdinRaw) and fh.eof for _, _, fh, _ in watched)


__all__ = ["InputError", "explain_paths", "follow", "merge_env"]
