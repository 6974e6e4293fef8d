"""Read training logs the way they really are: streamed in bounded chunks, gzip or plain, any bytes.

``iter_chunks`` yields runs of whole lines (so memory stays bounded whatever the file size); a line longer
than ``MAX_LINE_BYTES`` is cut to its head and tail (progress bars and the error printed right after one
live at the end). ``clean`` turns one raw line into what a terminal would have shown: CRLF and ``\\r``
progress bars resolved to the last segment, ANSI escapes and rich box borders removed, rank prefixes
(``[rank3]:``, torchrun ``[default0]:``, pdsh ``worker-1:``, srun ``3:``) split off into a stream key; a
writer's mark (Azure ML's ``[stderr]``, pytest's ``E   ``) dropped.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterator, List, Optional, Tuple

from ..errors import UsageError

CHUNK_BYTES = 1 << 20
MAX_LINE_BYTES = 64 * 1024  # a longer line keeps its first and last half of this
MAX_TEXT = 8192  # characters of a cleaned line that are matched
CUT_MARK = b" [... dsdoctor: line cut ...] "
LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".gz", ".stdout", ".stderr")


class InputError(UsageError):
    """A log path that cannot be read (explain exits 2 with this message)."""


@dataclass(frozen=True)
class Source:
    name: str  # what evidence shows: the path, or "<stdin>" / "log"
    path: Optional[str]  # None for stdin / text


def expand(paths: List[str]) -> List[Source]:
    """Files, directories (their log-like files, sorted) and ``-`` (stdin), in order."""
    out: List[Source] = []
    for p in paths or ["-"]:
        if p == "-":
            out.append(Source("<stdin>", None))
        elif os.path.isdir(p):
            names = sorted(n for n in os.listdir(p) if os.path.isfile(os.path.join(p, n)) and
                           (n.endswith(LOG_SUFFIXES) or "." not in n))
            if not names:
                raise InputError(f"{p}: directory holds no log files (*.log, *.txt, *.out, *.err, *.gz)")
            out.extend(Source(os.path.join(p, n), os.path.join(p, n)) for n in names)
        elif os.path.isfile(p):
            if not os.access(p, os.R_OK):
                raise InputError(f"{p}: not readable")
            out.append(Source(p, p))
        else:
            raise InputError(f"{p}: no such file or directory")
    return out


def open_binary(src: Source) -> BinaryIO:
    """The source as a binary stream; gzip is recognised by its magic bytes, not the name."""
    if src.path is None:
        raw = StdinRaw(sys.stdin.fileno())
        head = raw.fill_head(2)
        if head == b"\x1f\x8b":
            return gzip.GzipFile(fileobj=io.BufferedReader(raw))  # type: ignore[return-value]
        return raw  # type: ignore[return-value]
    try:
        f = open(src.path, "rb")
    except OSError as exc:
        raise InputError(f"{src.path}: {exc.strerror or exc}") from exc
    if f.read(2) == b"\x1f\x8b":
        f.seek(0)
        return gzip.GzipFile(fileobj=f)  # type: ignore[return-value]
    f.seek(0)
    return f


class StdinRaw(io.RawIOBase):
    """stdin read straight from its file descriptor, with no hidden read-ahead buffer, so ``--follow`` can
    poll it with select() and see every byte (a buffered reader's peek would hide what it pre-read)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.pending = b""  # bytes read to sniff gzip, not yet handed out
        self.eof = False

    def readable(self) -> bool:
        return True

    def fill_head(self, n: int) -> bytes:
        while len(self.pending) < n and not self.eof:
            more = os.read(self.fd, n - len(self.pending))
            self.eof = not more
            self.pending += more
        return self.pending[:n]

    def readinto(self, buf: "bytearray | memoryview") -> int:  # type: ignore[override]
        if self.pending:
            k = min(len(buf), len(self.pending))
            buf[:k] = self.pending[:k]
            self.pending = self.pending[k:]
            return k
        data = os.read(self.fd, len(buf))
        buf[:len(data)] = data
        return len(data)

    def read_available(self, limit: int) -> bytes:
        """What can be read now without blocking (b"" when nothing yet or at EOF; see ``eof``)."""
        if self.pending:
            out, self.pending = self.pending, b""
            return out
        if self.eof:
            return b""
        import select

        ready, _, _ = select.select([self.fd], [], [], 0)
        if not ready:
            return b""
        data = os.read(self.fd, limit)
        self.eof = not data
        return data


def bytes_stream(data: bytes) -> BinaryIO:
    return io.BytesIO(data)


def iter_chunks(f: BinaryIO, size: int = CHUNK_BYTES, max_line: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """Runs of whole lines (each ending in ``\\n``, the last one maybe not). Bounded memory: a line longer
    than ``max_line`` comes out as its head, a cut mark and its tail."""
    carry = b""
    head: Optional[bytes] = None  # set while inside an over-long line: its first half
    tail = b""
    half = max_line // 2
    while True:
        try:
            data = f.read(size)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:  # truncated gzip / read error: keep what was read
            data = b""
            if head is None:
                carry += b"\n[dsdoctor: input ended early: " + str(exc).encode("utf-8", "replace") + b"]"
        if not data:
            break
        if head is not None:
            nl = data.find(b"\n")
            if nl < 0:
                tail = (tail + data)[-half:]
                continue
            tail = (tail + data[:nl])[-half:]
            yield head + CUT_MARK + tail + b"\n"
            head, tail = None, b""
            data = data[nl + 1:]
        buf = carry + data if carry else data
        last = buf.rfind(b"\n")
        if last < 0:
            carry = buf
        else:
            carry = buf[last + 1:]
            yield buf[:last + 1]
        if len(carry) > max_line:
            head, tail, carry = carry[:half], carry[-half:], b""
    if head is not None:
        yield head + CUT_MARK + tail
    elif carry:
        yield carry


# ----------------------------------------------------------------------------------------- line cleaning

_ANSI = re.compile(r"\x1b\[[0-?]{0,32}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")
_BOX_EDGE = "│┃║|"
_RANK = re.compile(r"\[(rank|default|)(\d{1,6})\][ ]?:[ ]?")  # torch [rank3]: ; torchrun --tee [default0]: ; [3]:
# pdsh / DeepSpeed multi-node "worker-1: ": a host name (letters, digits, '-', dots; a digit or a dot in it)
_HOST = re.compile(r"([A-Za-z0-9][A-Za-z0-9.-]{0,62}): ")
_SRUN = re.compile(r"(\d{1,5}): ")  # srun --label
# other writers' marks before every line of one process: Ray's for a worker or actor (OpenRLHF, verl: "(ActorModelRayActor
# pid=21287, ip=10.0.0.5) ", "(pid=31477) "), OpenMPI's --tag-output ("[1,3]<stderr>:"), kubectl logs --prefix
# ("[pod/train-0/main] "), docker compose's service column ("trainer-1  | ")
_TAG = re.compile(r"\((?:[A-Za-z_][\w.:-]{0,80} )?pid=(?P<pid>\d{1,10})(?:, [a-z_]{1,10}=[^()\s]{1,100}){0,3}\) |"
                  r"\[\d{1,10},(?P<rank>\d{1,6})\]<std(?:out|err)>: ?|\[pod/(?P<pod>[\w.-]{1,253})/[\w.-]{1,63}\] ")
_COMPOSE = re.compile(r"([A-Za-z0-9][\w.-]{0,80}) {1,40}\| ")
# a log collector's or logger's timestamp before every line (not a stream): ISO 8601 from docker/kubectl --timestamps
# and GitHub Actions, containerd's "<time> stdout F ", Python logging's "2024-05-01 10:00:00,123 - INFO - ". Not
# DeepSpeed's own bracketed "[2024-05-01 10:00:00,123] [INFO]" (its signatures keep those).
_STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?(?: (?:stdout|stderr) [FP])?"
                    r"(?: (?:- )?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)(?: -)?)?(?: |\t|$)")
# another writer's mark before every line, dropped like a timestamp: Azure ML's "[stderr]" / "[stdout]", a markdown
# quote's "> " (a reply quoting a log; not the REPL's ">>> "), pytest's "E   "
# before the lines of a failed test's exception (its indentation after the mark is the line's own), a CI console's
# bracketed ISO 8601 time ("[2024-10-23T03:04:17.778Z] ", Jenkins' timestamper; DeepSpeed's own "[2024-10-23 03:04:17,778]"
# has no "T" and is kept)
_WRITER = re.compile(r"\[std(?:err|out)\]|E   (?=\S|  )|(?:> ){1,8}|"
                     r"\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\] ?")


def _hostlike(name: str) -> bool:
    if name == "localhost":
        return True
    if "." in name:
        return all(seg and seg == seg.lower() for seg in name.split("."))
    return any(c.isdigit() for c in name) and not name.isdigit()


def split_prefix(text: str) -> Tuple[str, str]:
    """(stream key, text without rank/host prefixes and without a timestamp before or between them)."""
    keys: List[str] = []
    for _ in range(4):
        m = _STAMP.match(text) if text[:1].isdigit() else None  # dropped, not a stream
        if m is None and text[:1] in "[E>":
            m = _WRITER.match(text)
        if m is None:
            m = _RANK.match(text) or (_TAG.match(text) if text[:1] in "([" else None)
            if m and m.re is _TAG:
                keys.append(next(k + v if k in ("pid", "rank") else v for k, v in m.groupdict().items() if v))
            elif m:
                keys.append(("local" if m.group(1) == "default" else "rank") + m.group(2))
            else:
                m = _HOST.match(text)
                if not (m and _hostlike(m.group(1))):
                    m = _COMPOSE.match(text) if "| " in text[:124] else None
                if m:
                    keys.append(m.group(1))
                else:  # srun's label comes first, or between a collector's rank prefix and the rank's own
                    m = _SRUN.match(text)
                    if m and (not keys or _RANK.match(text, m.end())):
                        keys.append("task" + m.group(1))
                    else:
                        break
        text = text[m.end():]
    return "/".join(keys), text


def terminal_text(text: str) -> str:
    """What a terminal shows for one line: ANSI escapes dropped, a progress bar redrawn with ``\r`` reduced to
    its last segment, CR of CRLF dropped."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.rstrip("\r")
        if "\r" in text:  # a progress bar redrawn in place: the terminal shows the last segment
            parts = [p for p in text.split("\r") if p.strip()]
            text = parts[-1] if parts else ""
    return text


def clean(raw: bytes) -> Tuple[str, str]:
    """(stream key, what the terminal showed) for one raw line (without its newline)."""
    if len(raw) > MAX_LINE_BYTES + len(CUT_MARK):
        raw = raw[:MAX_LINE_BYTES // 2] + CUT_MARK + raw[-MAX_LINE_BYTES // 2:]
    stream, text = split_prefix(terminal_text(raw.decode("utf-8", "replace")))
    if text[:1] in _BOX_EDGE or text[-1:] in _BOX_EDGE:  # rich's boxed traceback: │ ... │
        s = text.strip()
        if s[:1] in _BOX_EDGE and (s[-1:] in _BOX_EDGE or len(s) > 2):
            text = s[1:].rstrip(" " + _BOX_EDGE) if s[-1:] in _BOX_EDGE else s[1:]
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT // 2] + " [...] " + text[-MAX_TEXT // 2:]
    return stream, text
