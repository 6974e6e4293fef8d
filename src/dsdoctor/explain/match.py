"""Scan a log for signatures, tracebacks and versions, in one streaming pass with bounded memory.

Speed: the raw bytes of each chunk go through the prefilter (``prefilter.Prefilter``: one multi-literal pass)
whose literals are derived, once, from the signatures' needles and the scanner's own structural lines
(``prefilter_needles``); only the lines holding one are decoded, cleaned and matched. Inside a traceback
(per rank stream) every line is read, so frames, source lines and exception lines are seen.
What is kept is bounded: the first ``KEEP`` hits per name, ``MAX_TRACEBACKS`` tracebacks, 20 notes.

Kept whole: the :class:`Scanner` is one streaming state machine, and its regexes, the structural literals
its prefilter must pass and the records it fills (:class:`Hit`, :class:`Traceback`) change together with it.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Deque, Dict, List, Optional, Pattern, Set, Tuple

from ..knowledge import deepspeed as K
from ..knowledge import transformers as TK
from . import failure
from .causes import Signature, all_signatures
from .context import MARKS as CONTEXT_MARKS
from .prefilter import Prefilter, gate
from .reader import clean


def _signatures() -> Tuple[Signature, ...]:
    """The one place the scanner (and its prefilter) reads the signatures from."""
    return all_signatures()


KEEP = 5
MAX_TRACEBACKS = 64
MAX_STREAMS = 4096
TAIL_LINES = 40  # lines read after an exception line (multi-line messages: pydantic, build output, torchrun summary)
NBSP = "\u00a0".encode()  # U+00A0 in UTF-8

# (name, literals one of which every match holds (the prefilter reads lines holding one), regex)
_VERSION_RX: Tuple[Tuple[str, Tuple[str, ...], Pattern[str]], ...] = (
    ("deepspeed", ("DeepSpeed info: version=",), re.compile(r"DeepSpeed info: version=(\d[\w.+-]{0,40})")),
    ("deepspeed", ("deepspeed info ...",), re.compile(r"deepspeed info \.{3,} ?(\d[\w.+-]{0,40})")),
    ("deepspeed", ("deepspeed=", "deepspeed-"), re.compile(r"\bdeepspeed[=-]=?(\d+\.\d+\.\d+[\w.+]{0,20})")),
    ("torch", ("torch version ...",), re.compile(r"torch version \.{3,} ?(\d[\w.+-]{0,40})")),
    ("torch", ("torch==",), re.compile(r"\btorch==(\d+\.\d+[\w.+]{0,20})")),
    ("torch", ("PyTorch version",), re.compile(r"PyTorch version(?: \(GPU\?\))?: (\d[\w.+-]{0,40})")),
    ("torch_cuda", ("torch cuda version ...",), re.compile(r"torch cuda version \.{3,} ?(\d[\w.]{0,20})")),
    ("nvcc", ("nvcc version ...",), re.compile(r"nvcc version \.{3,} ?(\d[\w.]{0,20})")),
    ("transformers", ("transformers version: ", "transformers` version: "),
     re.compile(r"`?transformers`? version: (\d[\w.+-]{0,40})")),
    ("transformers", ("transformers==",), re.compile(r"\btransformers==(\d+\.\d+[\w.+]{0,20})")),
    ("accelerate", ("ccelerate version: ", "ccelerate` version: "), re.compile(r"`?[Aa]ccelerate`? version: (\d[\w.+-]{0,40})")),
    ("peft", ("PEFT version: ", "peft` version: ", "peft version: "), re.compile(r"`?(?:PEFT|peft)`? version: (\d[\w.+-]{0,40})")),
    ("trl", ("TRL version: ", "trl` version: ", "trl version: "), re.compile(r"`?(?:TRL|trl)`? version: (\d[\w.+-]{0,40})")),
    # pip's output (``pip list`` columns, ``pkg==x.y``, an installed dist-info dir or egg in a frame's path) for the
    # packages the API history reads
    *((pkg, (f"{pkg}==", f"{pkg}-", f"{pkg}  "), re.compile(
        r"\b%s(?:==|-(?=\d[\w.+]{0,20}(?:\.dist-info|-py\d\.\d{1,2}\.egg))|\s{2,40}(?=\d[\w.+]{0,20}\s*$))(\d+\.\d+[\w.+]{0,20}?)"
        r"(?:\.dist-info|-py\d\.\d{1,2}\.egg|\s*$|[,;\s'\")])"
        % pkg)) for pkg in ("accelerate", "transformers", "peft", "trl", "deepspeed", "torch", "vllm")),
)
WRAP_MIN = 60  # a line this long may have been hard-wrapped (terminals, pastebins: 80-200 columns)
_TB_START = "Traceback (most recent call last)"
_FRAME = re.compile(r'^\s{0,8}File "([^"]{1,1000})", line (\d{1,7}), in (\S{1,300})')
_IDENT_REST = re.compile(r"[A-Za-z0-9_>]{1,200}$")
_FRAME_HEAD = re.compile(r'^\s{0,8}File "[^"]{1,1000}(?:"(?:, line \d{0,7}(?:, i?)?)?)?$')  # cut by a hard wrap
_RICH_FRAME = re.compile(r"^\s{0,4}(\S{1,1000}?\.py):(\d{1,7}) in (\S{1,300})\s*$")
_PYTEST_FRAME = re.compile(r"^\s{0,4}(\S{1,1000}?\.py):(\d{1,7}): in (\S{1,300})\s*$")  # pytest's short form ("--tb=short", collection errors)
_RICH_CALL = re.compile(r"^\s{0,4}❱\s{0,4}(\d{1,7})\s{0,4}[│|]?(.{0,400})$")
_EXC = re.compile(r"^([A-Za-z_][\w.]{0,200}(?:Error|Exception|Exit|Interrupt|Warning|Failure|Unsupported)|"
                  r"[A-Za-z_][\w.]{0,200}\.[A-Z]\w{0,80}|AssertionError|KeyboardInterrupt|StopIteration)(?::\s?(.*)|\s*)$")
_CHAIN = ("The above exception was the direct cause", "During handling of the above exception")
# an exception line outside any traceback (a paste of the last line, a launcher's echo): Error/Exception only
_PROGRESS = re.compile(r"(?:[^|]{0,80}: ?)?\d{1,3}%\|")  # a tqdm bar: "  3%|█▏ | 12/400 [...]", "Map:  40%|████ ..."
_LONE_EXC = re.compile(r"^[A-Za-z_][\w.]{0,200}(?:Error|Exception): \S")
_EXT_ROOT = re.compile(r"Using\s{1,4}(\S{1,1000}) as PyTorch extensions root")  # torch prints two spaces when the dir is relative
_BUILD_START = re.compile(r"Building extension module (\w{1,100})|Emitting ninja build file|"
                          r"Waiting for lock|Using\s{1,4}\S{1,1000} as PyTorch extensions root")
_NINJA_RAN = "Allowing ninja to set a default number of workers"  # torch cpp_extension _run_ninja_build (1.x-2.14)
_BUILD_DONE = re.compile(r"Loading extension module (\w{1,100})|Time to load (\w{1,100}) op")
# Lines kept as context (``Scanner.marks``), not causes: how the run went before a failure (diagnose's ranking).
# kill: the launcher killing its ranks; overflow: an fp16 step skipped; memory: DeepSpeed's host-RAM report; load: DeepSpeed reading a
# checkpoint into host RAM; handled: a library handling an
# error it logged (falling back, saving another way): the error before it is not what ended the run.
MARKS: Tuple[Tuple[str, str], ...] = (
    ("kill", K.MSG_LAUNCH_KILL.split("{")[0]),
    ("memory", K.MSG_HOST_MEMORY.split("  ")[0]),
    ("load", K.MSG_CKPT_LOADING.split("{")[0]), ("load", K.MSG_ZERO_SD_READ.split(" {")[0]),
    ("handled", TK.MSG_GATHER_16BIT_FALSE.split(". ")[1]),
    ("handled", "falling back"), ("handled", "Falling back"),
    ("exit", K.MSG_LAUNCH_EXIT.split("} ")[1].split("{")[0]), ("exit", "(exitcode: "),
    # overflow: fp16's loss scaler skipping a step (progress.py reads the walk of the scale down)
    ("overflow", "Skipping step. Attempted loss scale: "),
    # launch: a node's launch command naming the rendezvous address (launches.py compares the nodes')
    *(("launch", lit) for lit in ("MASTER_ADDR=", "--master_addr", "--master-addr", "--main_process_ip", "rdzv_endpoint",
                                  "rdzv-endpoint")),
)
MARKS_KEPT = 16  # the last ones of each kind
_WARN = re.compile(r"\[WARNING\]|\bUserWarning\b|\bFutureWarning\b|\bDeprecationWarning\b|^W\d{4} ")


@dataclass
class Hit:
    """A line that matched a signature (or a warning worth listing)."""

    name: str
    source: str
    line: int
    stream: str
    text: str
    symptom: bool = False
    note: bool = False
    groups: Dict[str, str] = field(default_factory=dict)
    order: int = 0  # global order across sources (source index, line)


@dataclass
class Frame:
    path: str
    line: int
    func: str
    code: str = ""


@dataclass
class Traceback:
    source: str
    line: int  # of the "Traceback ..." line
    stream: str
    frames: List[Frame] = field(default_factory=list)
    exc_line: int = 0
    exc_text: str = ""
    message: List[str] = field(default_factory=list)  # continuation lines of the exception message
    chained_from: Optional["Traceback"] = None  # the exception this one was raised from/while handling
    order: int = 0
    count: int = 1  # identical tracebacks on other ranks


@dataclass
class _Stream:
    tb: Optional[Traceback] = None
    after_frame: bool = False
    chain: Optional[Traceback] = None  # last finished traceback, if a chain marker followed it
    tail_left: int = 0
    window: int = 0  # lines still to read one by one (compiler output after "FAILED:")
    last_tb: Optional[Traceback] = None
    wait: int = 0
    indent: int = 0  # of the "Traceback" line: pip indents a build's traceback (source lines sit deeper)
    frame_head: str = ""  # a frame line hard-wrapped before its `", line N, in f`: joined with what follows
    frame_parts: int = 0
    frame_len: int = 0  # of the last frame line: a long one may have been wrapped inside its function name


# The scanner's own lines, besides the signatures': literals of lines it must read whatever the signatures say
# (tests/test_explain_prefilter.py and test_explain_scanner.py check each kind). Every other line is read only when it holds a
# signature's needle, or sits in a region read line by line: a traceback (from "Traceback" to its exception
# line, then TAIL_LINES more for multi-line messages and torchrun's error summary) or a build-failure window
# (WINDOW_LINES after ninja's "FAILED:", where the compiler output is).
STRUCTURAL: Tuple[str, ...] = (
    "Traceback (most",  # a traceback starts: its lines are read one by one
    "FAILED:",  # ninja: the compiler output follows
    "above exception",  # a chained exception (_CHAIN): Python prints a blank line before it, so it is outside any region
    '", line ',  # a frame line outside a traceback: a paste that starts below its "Traceback" header opens one
    ": in ",  # pytest's frame line ("x.py:25: in <module>"): its traceback has no "Traceback" header
    "Error: ", "Exception: ",  # an exception line outside any traceback (_LONE_EXC): recorded as a frameless traceback
    "No CUDA runtime is found",  # torch's cpp_extension: no GPU visible (diagnose's no_gpu fact)
    "PyTorch extensions root", "Building extension module", "Loading extension module",  # op build progress:
    "Emitting ninja build file", "Waiting for lock", "Time to load ",  # (a log that ends inside a build)
    "Allowing ninja to set a default number of workers",  # torch runs ninja: the lock was taken, compiling began
    *(lit for _, lits, _ in _VERSION_RX for lit in lits),  # version lines: advice depends on the versions
    *failure.LITERALS,  # failure evidence (failure.kind): a log with one is never "no-failure"
    *(lit for _, lit in MARKS + CONTEXT_MARKS),  # context lines (diagnose's ranking; context.decide)
)
# Python warnings: read only while the warnings list (no-failure's notable warnings) is not full, and a line
# identical to one already read is skipped: a warning repeated by every rank costs a set lookup.
SOFT: Tuple[str, ...] = ("Warning:",)
MAX_WARNINGS = 20
MAX_FAILURES = 40
WINDOW_LINES = 60

_PREFILTER: Optional[Prefilter] = None


def _build(sigs: Tuple[Signature, ...]) -> Prefilter:
    missing = [s.name for s in sigs if not s.needle]
    if missing:
        raise ValueError(f"signatures without a needle (the prefilter could not read their lines): {missing}")
    full = [gate(s.needle).encode() for s in sigs] + [t.encode() for t in STRUCTURAL]
    return Prefilter(full, [t.encode() for t in SOFT])


def prefilter(sigs: Optional[Tuple[Signature, ...]] = None) -> Prefilter:
    """The prefilter for ``sigs`` (default: all signatures; built once, on first use)."""
    global _PREFILTER
    if sigs is not None:
        return _build(sigs)
    if _PREFILTER is None:
        _PREFILTER = _build(_signatures())
    return _PREFILTER


def prefilter_needles() -> Tuple[bytes, ...]:
    """Every literal the prefilter looks for (signature needles, structural and soft literals)."""
    return prefilter().literals


def passes_prefilter(line: bytes) -> bool:
    """True when the scanner reads and matches ``line`` outside a traceback (it holds a needle)."""
    return prefilter().passes(line)


class Scanner:
    """Feed it sources one after another (``feed_chunk``), then read the collected facts."""

    def __init__(self, sigs: Optional[Tuple[Signature, ...]] = None) -> None:
        self.sigs = _signatures() if sigs is None else sigs
        self.prefilter = prefilter(sigs)
        self._gates = [(sig, gate(sig.needle)) for sig in self.sigs]
        self._seen_soft: Set[bytes] = set()  # raw soft-only lines already read (the prefilter skips them)
        self._lone: Set[str] = set()  # exception lines seen outside tracebacks
        # a line holding a needle whose signature did not match, when it may go on in the next line (a hard wrap)
        self._wrap: Optional[Tuple[str, str, int, List[Tuple[Signature, str]]]] = None
        self.hits: Dict[str, List[Hit]] = {}
        self.counts: Dict[Tuple[str, bool], int] = {}
        self.symptoms: List[Hit] = []
        self.notes: List[Hit] = []
        self.warnings: List[Hit] = []
        self.tracebacks: List[Traceback] = []
        self.failures: List[Hit] = []  # lines that show a failure (failure.kind; the hit's name is the kind)
        self.versions: Dict[str, Tuple[str, str, int]] = {}  # name -> (version, source, line)
        self.installed: Dict[str, str] = {}  # package -> version in the environment `explain --env` checked
        self.ext_root: Optional[str] = None
        self.build_started: Optional[Hit] = None
        self.build_done = False
        self.build_ran: Optional[Hit] = None  # ninja was started for the last build (not a lock wait)
        self.streams: Dict[str, _Stream] = {}
        self.tail: Deque[Tuple[str, int, str]] = deque(maxlen=TAIL_LINES)
        self.marks: Dict[str, Deque[Hit]] = {kind: deque(maxlen=MARKS_KEPT) for kind, _ in MARKS + CONTEXT_MARKS}
        self.lines = 0
        self.bytes = 0
        self._src = ""
        self._src_index = 0
        self._line = 0
        self._last_raw = b""

    # ------------------------------------------------------------------------------------ driving
    def start_source(self, name: str, index: int) -> None:
        self._src, self._src_index, self._line = name, index, 0
        self.streams = {}
        self._last_raw = b""

    def feed_chunk(self, chunk: bytes) -> None:
        """Process a run of whole lines (from ``reader.iter_chunks``)."""
        self.bytes += len(chunk)
        if NBSP in chunk:  # a paste from a rendered page: its no-break spaces were spaces in the log (and needles)
            chunk = chunk.replace(NBSP, b" ")
        cur = self._line + 1  # number of the line starting at pos
        pos, n = 0, len(chunk)
        starts = self.prefilter.lines(chunk, len(self.warnings) < MAX_WARNINGS, self._seen_soft)
        k = 0
        seq = self._sequential()
        while pos < n:
            if not seq:
                while k < len(starts) and starts[k][0] < pos:
                    k += 1
                if k == len(starts):
                    break
                start = starts[k][0]
                k += 1
                if start > pos:
                    cur += chunk.count(b"\n", pos, start)
                    pos = start
            end = chunk.find(b"\n", pos)
            if end < 0:
                end = n
            self._line_event(chunk[pos:end], cur)
            seq = self._sequential()
            cur += 1
            pos = end + 1
        nl = chunk.count(b"\n") + (0 if chunk.endswith(b"\n") else 1)
        self._line += nl
        self.lines += nl
        self._last_raw = (self._last_raw + chunk)[-4096:] if n < 4096 else chunk[-4096:]

    def end_source(self) -> None:
        for st in self.streams.values():  # a log cut inside a traceback: keep what it showed
            if st.tb is not None:
                st.tb.exc_text = st.tb.exc_text or ""
                self._finish(st, st.tb)
                st.tb = None
        # the last lines of the source, cleaned (for "the log ends while ..." judgements)
        raws = self._last_raw.splitlines()[1:][-TAIL_LINES:]
        self.tail.clear()
        for i, raw in enumerate(raws):
            stream, text = clean(raw)
            if text.strip():
                self.tail.append((stream, self._line - len(raws) + 1 + i, text.strip()))
        last = [t for _, _, t in self.tail]
        for kind, at in ((failure.HANG, failure.stalled(last)), (failure.INTERRUPTED, failure.interrupted_at(last))):
            if at >= 0 and len(self.failures) < MAX_FAILURES:  # a bar stuck before step 1; a run the user interrupted
                stream, lineno, text = self.tail[at]
                self.failures.append(Hit(kind, self._src, lineno, stream, text[:1000], order=self._order(lineno)))

    def _sequential(self) -> bool:
        return self._wrap is not None or any(st.tb is not None or st.tail_left > 0 or st.window > 0 or st.after_frame or st.frame_head
                                             for st in self.streams.values())

    # --------------------------------------------------------------------------------- one line
    def _stream(self, key: str) -> _Stream:
        st = self.streams.get(key)
        if st is None:
            if len(self.streams) >= MAX_STREAMS:
                key = "*"
                st = self.streams.setdefault(key, _Stream())
            else:
                st = self.streams[key] = _Stream()
        return st

    def _order(self, line: int) -> int:
        return self._src_index * (1 << 40) + line

    def _line_event(self, raw: bytes, lineno: int) -> None:
        stream, text = clean(raw)
        if self._wrap is not None:  # the line after one that held a needle: matched as its continuation
            head_stream, head, head_line, near = self._wrap
            self._wrap = None
            if text and stream in ("", head_stream) and not text.startswith("  "):
                joined = head + text
                self._match(head_stream, joined, joined.strip(), head_line, near)
        st = self._stream(stream)
        if st.frame_head:  # the rest of a hard-wrapped frame line (at most 4 pieces)?
            head, st.frame_head = st.frame_head, ""
            joined = head + text
            if _FRAME.match(joined):
                text = joined
            elif _FRAME_HEAD.match(joined) and st.frame_parts < 4:
                st.frame_head, st.frame_parts = joined, st.frame_parts + 1
                return
            else:  # not a wrap: the held line is read as it was
                self._read_line(stream, st, head, lineno - 1)
        elif _FRAME_HEAD.match(text) and not _FRAME.match(text) and len(text) >= WRAP_MIN:
            st.frame_head, st.frame_parts = text, 1
            return
        self._read_line(stream, st, text, lineno)

    def _read_line(self, stream: str, st: _Stream, text: str, lineno: int) -> None:
        stripped = text.strip()
        if st.window > 0:
            st.window -= 1
        if "FAILED:" in text:
            st.window = WINDOW_LINES
        if _TB_START in text:
            tb = Traceback(self._src, lineno, stream, order=self._order(lineno))
            if st.chain is not None:
                tb.chained_from = st.chain
                st.chain = None
            st.tb, st.after_frame, st.tail_left, st.wait = tb, False, 0, 0
            st.indent = len(text) - len(text.lstrip())
            if not text.lstrip().startswith(_TB_START):  # a flattened paste: the line holds a message too
                self._match(stream, text, stripped, lineno)
            return
        if any(c in text for c in _CHAIN) and st.last_tb is not None:
            st.chain = st.last_tb
            st.tail_left = 0
            return
        if st.tb is None and (_FRAME.match(text) or (": in " in text and _PYTEST_FRAME.match(text))):  # no header: a paste from a frame
            st.tb = Traceback(self._src, lineno, stream, order=self._order(lineno))
            st.after_frame, st.tail_left, st.wait = False, 0, 0
            st.indent = max(0, len(text) - len(text.lstrip()) - 2)
        if st.tb is not None:
            if self._traceback_line(st, text, stripped, lineno):
                return
        elif st.tail_left > 0:
            st.tail_left -= 1
            if not stripped:
                st.tail_left = 0
            elif st.last_tb is not None and len(st.last_tb.message) < 10:
                st.last_tb.message.append(stripped[:500])
        elif _LONE_EXC.match(stripped):  # an exception line with no traceback: a frameless one
            tb = Traceback(self._src, lineno, stream, exc_line=lineno, exc_text=stripped[:2000], order=self._order(lineno))
            self._finish(st, tb)
            if tb.exc_text not in self._lone:  # its message lines once: a line logged every step stays cheap
                st.tail_left = TAIL_LINES
                if len(self._lone) < 4096:
                    self._lone.add(tb.exc_text)
        self._match(stream, text, stripped, lineno)

    def _traceback_line(self, st: _Stream, text: str, stripped: str, lineno: int) -> bool:
        """Consume a line inside a traceback; True when it was structure only (source lines, box borders)."""
        tb = st.tb
        assert tb is not None
        fm = _FRAME.match(text) or _RICH_FRAME.match(text) or _PYTEST_FRAME.match(text)
        if fm:
            if len(tb.frames) < 200:
                tb.frames.append(Frame(fm.group(1), int(fm.group(2)), fm.group(3)))
            else:
                tb.frames[-1] = Frame(fm.group(1), int(fm.group(2)), fm.group(3))
            st.after_frame, st.wait, st.frame_len = True, 0, len(text)  # wait: lines since the last frame
            return False  # structure, and matched too: a frame line can be a signature (a paste without its header)
        rc = _RICH_CALL.match(stripped)
        if rc and tb.frames:
            tb.frames[-1].code = rc.group(2).strip()
            return True
        if _PROGRESS.match(stripped):  # another writer's progress bar between the traceback's lines: not part of it
            return True
        if (st.after_frame and st.frame_len >= WRAP_MIN and tb.frames and not tb.frames[-1].code and text == stripped
                and _IDENT_REST.match(stripped)):  # a hard wrap inside the function name: "in installed_cu" + "da_version"
            f = tb.frames[-1]
            tb.frames[-1] = Frame(f.path, f.line, f.func + stripped)
            st.frame_len = 0
            return True
        if st.after_frame and (len(text) - len(text.lstrip()) > st.indent or not stripped):
            if stripped and not set(stripped) <= set("^~ ") and tb.frames and not tb.frames[-1].code:
                tb.frames[-1].code = stripped[:400]
            return True  # source line (or the ^^^ markers): code, not a message
        if not stripped or set(stripped) <= set("─━╭╮╰╯│ ") or stripped.startswith(("╭", "╰")):
            return True
        ex = _EXC.match(stripped)
        if ex or st.wait >= 3:
            tb.exc_line, tb.exc_text = lineno, stripped[:2000]
            self._finish(st, tb)
            st.tb, st.after_frame, st.tail_left = None, False, TAIL_LINES
            return False
        st.wait += 1
        # a foreign line (another writer, interleaved) between a frame and its source line keeps the frame open
        st.after_frame = st.after_frame and bool(tb.frames) and not tb.frames[-1].code
        return False

    def _finish(self, st: _Stream, tb: Traceback) -> None:
        st.last_tb = tb
        for other in self.tracebacks:  # the same failure on many ranks: count it once
            if other.exc_text == tb.exc_text and [f.func for f in other.frames] == [f.func for f in tb.frames]:
                other.count += 1
                return
        if len(self.tracebacks) < MAX_TRACEBACKS:
            self.tracebacks.append(tb)

    def _match(self, stream: str, text: str, stripped: str, lineno: int,
               gates: Optional[List[Tuple[Signature, str]]] = None) -> None:
        if not stripped:
            return
        near: List[Tuple[Signature, str]] = []
        for sig, needle in self._gates if gates is None else gates:
            if needle not in text:
                continue
            m = sig.pattern.search(text)
            if m is None:
                near.append((sig, needle))
                continue
            key = (sig.name, sig.symptom or sig.note)
            self.counts[key] = self.counts.get(key, 0) + 1
            hit = Hit(sig.name, self._src, lineno, stream, stripped[:1000], sig.symptom, sig.note,
                      {k: v for k, v in m.groupdict().items() if v}, self._order(lineno))
            if sig.symptom:
                if len(self.symptoms) < 40:
                    self.symptoms.append(hit)
            elif sig.note:
                if len(self.notes) < 20:
                    self.notes.append(hit)
            else:
                bucket = self.hits.setdefault(sig.name, [])
                if len(bucket) < KEEP:
                    bucket.append(hit)
            break
        else:
            if near and gates is None and len(text) >= WRAP_MIN:  # a needle but no match: maybe hard-wrapped
                self._wrap = (stream, text, lineno, near)
        for name, lits, rx in _VERSION_RX:
            if name not in self.versions and any(lit in text for lit in lits):
                vm = rx.search(text)
                if vm:
                    self.versions[name] = (vm.group(1).rstrip(".,"), self._src, lineno)
        for kind, lit in MARKS:
            if lit in text:
                self.marks[kind].append(Hit(kind, self._src, lineno, stream, stripped[:500], order=self._order(lineno)))
                break
        for kind, lit in CONTEXT_MARKS:  # what the run was (ZeRO-3, a quantized load): each kind once a line
            if lit in text and not (self.marks[kind] and self.marks[kind][-1].order == self._order(lineno)):
                self.marks[kind].append(Hit(kind, self._src, lineno, stream, stripped[:500], order=self._order(lineno)))
        er = _EXT_ROOT.search(text)
        if er:
            self.ext_root = er.group(1)
        if _NINJA_RAN in text:
            self.build_ran = Hit("build", self._src, lineno, stream, stripped[:500])
            self.build_done = False
        elif _BUILD_START.search(text):
            self.build_started = Hit("build", self._src, lineno, stream, stripped[:500])
            self.build_done, self.build_ran = False, None
        elif _BUILD_DONE.search(text):
            self.build_done = True
        if gates is None and len(self.failures) < MAX_FAILURES:
            fk = failure.kind(stripped)
            if fk is not None and all(h.text != stripped[:1000] for h in self.failures):
                self.failures.append(Hit(fk, self._src, lineno, stream, stripped[:1000], order=self._order(lineno)))
        if len(self.warnings) < MAX_WARNINGS and _WARN.search(text) and all(w.text != stripped[:300] for w in self.warnings):
            self.warnings.append(Hit("warning", self._src, lineno, stream, stripped[:300]))
