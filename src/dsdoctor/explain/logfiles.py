"""Explaining log files, directories of rank logs and stdin: all at once (:func:`explain_paths`) or while they are
written (:func:`follow`). The command is :mod:`dsdoctor.commands.explain`, which also merges what ``check``
confirms (:mod:`.envmerge`)."""

from __future__ import annotations

import time
from typing import Dict, List, Optional, Sequence, Tuple

from ..model import Report
from .diagnose import diagnose_scan, scan_sources
from .match import Scanner
from .reader import MAX_LINE_BYTES, InputError, Source, StdinRaw, expand, open_binary

FOLLOW_POLL_S = 0.5


def explain_paths(paths: List[str], installed: Optional[Dict[str, str]] = None) -> Report:
    """Explain files / directories / ``-``. ``installed``: package -> version of the environment ``explain --env``
    checked (answers use a version the log does not show from it)."""
    from .indexed_failures import file_lines, recheck

    sources = expand(paths)
    sc = Scanner()
    sc.installed = dict(installed or {})
    sc = scan_sources(sources, sc)
    report = recheck(diagnose_scan(sc), sc, diagnose_scan, file_lines(sources))
    report.facts["sources"] = [s.name for s in sources]
    return report


def follow(paths: List[str], seconds: Optional[float] = None, poll: float = FOLLOW_POLL_S,
           installed: Optional[Dict[str, str]] = None) -> Report:
    """Watch live logs; return as soon as a cause (or a finished traceback) appears, or after ``seconds``
    (Ctrl-C also stops and reports what was seen). One scanner per log, so rank files stay separate.
    ``installed``: as for :func:`explain_paths`."""
    sources = expand(paths)
    watched = []
    for i, src in enumerate(sources):
        sc = Scanner()
        sc.installed = dict(installed or {})
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


__all__ = ["InputError", "explain_paths", "follow"]
