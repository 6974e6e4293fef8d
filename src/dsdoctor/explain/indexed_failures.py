"""A failure shown only by a library's own message: for a log that would answer ``no-failure`` (no exception line,
no compiler error, no kill, ...), the lines whose text is a message a library *raises* (the message index,
:mod:`dsdoctor.knowledge.messages`; messages only logged do not count) are failure evidence. People paste the
message without its exception class (``No slot '2' specified on host 'work1'``), or the ``assert`` line of a
traceback cut around it; and a line that is only a quoted guard sentence (``failure.quoted_guard``: an application's
``'X is incompatible with Y.'``). Runs only on that path, over at most :data:`MAX_BYTES` of the log; so does the reading of a
P2P test's latency matrix (``p2p_test.py``)."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, List, Sequence, Tuple

from .. import names as N
from ..model import Report
from . import failure as FM
from .engine_init import stops_in_setup
from .match import Hit, Scanner
from .p2p_test import broken_p2p
from .reader import Source, clean, open_binary
from .startup import launcher_only, unread_hostfile
from .uneven_ranks import uneven_batches

MAX_BYTES = 8 << 20  # a no-failure log longer than this is not searched line by line
MIN_LITERAL = 30  # literal characters of the template the line must show (a shorter match may be any text)
MAX_HITS = 3


def _raised(kind: str) -> bool:
    """A kind of the index that is an exception class (not a log level, not a warning category)."""
    return kind[:1].isupper() and not kind.endswith("Warning")


def raised_lines(lines: Iterable[Tuple[int, bytes]], source: str, index: int = 0) -> List[Hit]:
    """The lines (numbered, raw) that show a message a library raises, as failure hits of kind exception."""
    from ..knowledge import messages as MI  # loaded only for a log with no failure line

    out: List[Hit] = []
    for lineno, raw in lines:
        stream, text = clean(raw)
        text = text.strip()
        if len(text) < MIN_LITERAL or FM.kind(text) is not None:
            continue
        found = MI.lookup(text)[:20]
        raised = max((m.literal for m in found if _raised(m.message.kind) and not m.cut), default=0)
        logged = max((m.literal for m in found if not _raised(m.message.kind)), default=0)
        # a message one release raises and another only logs (a warning that goes on) is no evidence; a quoted guard
        # sentence is, unless a library only logs it
        if (raised >= MIN_LITERAL and raised > logged) or (FM.quoted_guard(text) and raised >= logged):
            out.append(Hit(FM.EXCEPTION, source, lineno, stream, text[:1000], order=index * (1 << 40) + lineno))
            if len(out) >= MAX_HITS:
                break
    return out


def numbered(data: bytes) -> Iterator[Tuple[int, bytes]]:
    """(line number from 1, raw line) of the first :data:`MAX_BYTES` of ``data``."""
    return enumerate(data[:MAX_BYTES].split(b"\n"), 1)


def _source_lines(src: Source) -> Iterator[Tuple[int, bytes]]:
    data = b""
    try:
        with open_binary(src) as f:
            data = f.read(MAX_BYTES)
    except (OSError, EOFError, ValueError):  # a truncated .gz, a file gone since the scan: the scan already said so
        pass
    return numbered(data)


def recheck(report: Report, sc: Scanner, diagnose: Callable[[Scanner], Report],
            sources: Sequence[Tuple[str, Iterator[Tuple[int, bytes]]]]) -> Report:
    """``report`` again, when it answered ``no-failure``, with what only a line-by-line read shows: a P2P test's broken
    latency matrix (:mod:`.p2p_test`, a cause), else ranks reporting different totals of batches (:mod:`.uneven_ranks`,
    a cause) or a hostfile shown that the launcher did not read (:func:`.startup.unread_hostfile`, a cause), else the
    lines that show a raised library message (failure evidence),
    else a single log that holds only the launcher's start-up (:mod:`.startup`) or stops inside the engine's set-up
    (:mod:`.engine_init`); ``report`` when none is there."""
    if not report.findings or report.findings[0].name != N.NO_FAILURE:
        return report
    listed = [(name, list(lines)) for name, lines in sources]
    p2p = [h for i, (name, lines) in enumerate(listed) for h in broken_p2p(lines, name, i)][:2]
    if p2p:  # a P2P test's latency matrix that shows broken peer writes: a cause, not only a failure
        sc.hits[N.NCCL_P2P_UNSUPPORTED] = p2p
        return diagnose(sc)
    for find in (uneven_batches, unread_hostfile):  # causes only a line-by-line read shows
        found = next((u for i, (name, lines) in enumerate(listed) for u in [find(lines, name, i)] if u), [])
        if found:
            sc.hits[found[0].name] = found
            return diagnose(sc)
    hits = [h for i, (name, lines) in enumerate(listed) for h in raised_lines(lines, name, i)][:MAX_HITS]
    if not hits and len(listed) == 1:  # one log, all of it the launcher's start-up: the paste stops before any rank ran
        hits = launcher_only(listed[0][1], listed[0][0])
    if not hits and len(listed) == 1:  # one log that stops inside deepspeed.initialize's set-up
        hits = stops_in_setup(listed[0][1], listed[0][0])
    if not hits:
        return report
    sc.failures.extend(hits)
    return diagnose(sc)


def file_lines(sources: Sequence[Source]) -> List[Tuple[str, Iterator[Tuple[int, bytes]]]]:
    """The named line iterators of files (stdin, already consumed, has none)."""
    return [(s.name, _source_lines(s)) for s in sources if s.path is not None]
