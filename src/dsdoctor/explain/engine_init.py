"""A log that stops inside DeepSpeed's engine initialisation (``deepspeed.initialize``): after a line the engine prints
only while it sets up its optimizer, nothing but the engine's own set-up lines (its logger, the extension loader, ZeRO
stage 1/2's partition print) and none of the lines every finished set-up prints. Rank 0 prints the whole set-up within
a second or so, so a log that stops in the middle of it shows neither a failure nor a run that went on: people paste
the head of a run that then hung (a collective of the set-up, a swap buffer on NVMe) or whose process was killed (the
host's OOM killer while ZeRO-Offload allocates the pinned CPU optimizer state). For a log that would answer
``no-failure`` this is failure evidence of its own kind (``failure.ENGINE_INIT``): explain answers ``unknown`` ("the
log stops inside deepspeed.initialize"), never ``no-failure``. Runs only on that path (``indexed_failures.recheck``).

The engine's messages, read in DeepSpeed 0.9.0, 0.15.1 and 0.19.8 ``deepspeed/runtime/engine.py``
``DeepSpeedEngine.__init__`` / ``_configure_optimizer`` / ``_configure_zero_optimizer`` and
``deepspeed/runtime/zero/utils.py`` ``is_zero_supported_optimizer``: the set-up lines ``DeepSpeed Flops Profiler
Enabled:``, ``Using client Optimizer as basic optimizer``, ``Using DeepSpeed Optimizer param name ...``, ``DeepSpeed
Basic Optimizer = ...``, ``Checking ZeRO support for optimizer=...``, ``Creating <dtype> ZeRO stage <n> optimizer``
(``Initializing ZeRO Stage 3`` in older releases); the lines of a finished set-up: ``DeepSpeed Final Optimizer =``
(``_configure_optimizer``'s last line), ``DeepSpeed LR Scheduler =`` and ``DeepSpeedEngine configuration:`` (rank 0's
config print at the end of ``__init__``, in every release read). ``DeepSpeed info: version=`` is not a set-up line:
``deepspeed.init_inference`` prints it too."""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from . import failure as FM
from .match import Hit
from .reader import clean

MAX_AFTER = 2000  # set-up lines after the last start line: a longer tail is a run that went on

# DeepSpeed's logger: "[2024-09-24 17:19:00,072] [INFO] [engine.py:1297:_configure_optimizer] ..." (time may be dropped)
_DS_LOG = re.compile(r"^(?:\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] )?\[(?:INFO|WARNING)\] \[[\w.]{1,80}\.py:\d{1,6}:\w{1,80}\] ")
_START = re.compile(r"DeepSpeed Flops Profiler Enabled:|Using client Optimizer as basic optimizer|"
                    r"Using DeepSpeed Optimizer param name |DeepSpeed Basic Optimizer = |Checking ZeRO support for optimizer=|"
                    r"Creating \w{1,20} ZeRO stage \d optimizer|Initializing ZeRO Stage \d")
_END = re.compile(r"DeepSpeed Final Optimizer = |DeepSpeed LR Scheduler = |DeepSpeedEngine configuration")
# torch's extension loader (the ops the set-up loads: utils, cpu_adam, fused_adam) and ZeRO 1/2's per-rank print
_SETUP = re.compile(r"^(?:Using \S.{0,400} as PyTorch extensions root\.\.\.|No modifications detected for re-loaded "
                    r"extension module \w{1,60}, skipping build step\.\.\.|Loading extension module \w{1,60}\.\.\.|"
                    r"Time to load \w{1,60} op: [\d.e-]{1,30} seconds|Rank: \d{1,6} partition count )")


def _line(text: str) -> Optional[str]:
    """"start" (a set-up line of the engine's), "end" (a finished set-up's line), "setup" (another line of the set-up),
    or None (anything else)."""
    if not text:
        return "setup"
    m = _DS_LOG.match(text)
    if m is None:
        return "setup" if _SETUP.match(text) else None
    rest = text[m.end():]
    if _END.search(rest):
        return "end"
    return "start" if _START.search(rest) else "setup"


def stops_in_setup(lines: Iterable[Tuple[int, bytes]], source: str, index: int = 0) -> List[Hit]:
    """The last line of a log (numbered, raw lines) that stops inside DeepSpeed's engine set-up, as a failure hit of
    kind ``failure.ENGINE_INIT`` (its text: the last start line, then the last line); [] for any other log."""
    start: Optional[str] = None
    last: Optional[Tuple[int, str, str]] = None
    after = 0
    for lineno, raw in lines:
        stream, text = clean(raw)
        text = text.strip()
        role = _line(text)
        if role == "start":
            start, after = text, 0
        elif start is None:
            continue
        elif role is None or role == "end":
            start = None  # the set-up went on to something else: not this
            continue
        after += 1
        if after > MAX_AFTER:
            return []
        if text:
            last = (lineno, stream, text)
    if start is None or last is None:
        return []
    lineno, stream, text = last
    return [Hit(FM.ENGINE_INIT, source, lineno, stream, text[:1000], groups={"start": start[:300]},
                order=index * (1 << 40) + lineno)]
