"""A log that stops in the DeepSpeed launcher's start-up: every line is the launcher's own (``runner.py`` /
``multinode_runner.py`` choosing hosts and printing its command, ``launch.py`` printing the world info and spawning
the ranks, the accelerator auto-detection every process prints first), a shell prompt or a paste's elision, and no
rank printed anything. Such a paste shows neither a failure nor a run that went on: people paste the head of a
run whose failure (a missing tool, a rank killed, a hang) came after it. For a log that would answer ``no-failure``
this is failure evidence of its own kind (``failure.STARTUP``): explain answers ``unknown`` ("the log stops in the
launcher's start-up"), never ``no-failure``. Runs only on that path (``indexed_failures.recheck``).

The launcher's messages, read in DeepSpeed 0.15.1 ``deepspeed/launcher/launch.py`` main (``WORLD INFO DICT``,
``nnodes=``, ``global_rank_mapping=``, ``dist_world_size=``, ``Setting CUDA_VISIBLE_DEVICES=``, ``process N spawned
with command``, the node's env vars) and ``runner.py`` main (``cmd = ...``, ``Unable to find hostfile``, ``Using IP
address of ...``). ``launch.py``'s end lines (``Process N exits successfully.``, ``Main
process received SIGTERM``, ``Killing subprocess``) are not start-up: a log holding one is not this."""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from . import failure as FM
from .match import Hit
from .reader import clean

MAX_LINES = 400  # a start-up is a few dozen lines (one per host and rank at most); a longer log is something else

# DeepSpeed's logger: "[2024-09-24 17:19:00,072] [INFO] [runner.py:585:main] ..." (the time may be dropped)
_DS_LOG = re.compile(r"^(?:\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] )?\[(?:INFO|WARNING)\] "
                     r"\[(runner|multinode_runner|real_accelerator|launch)\.py:\d{1,6}:(\w{1,60})\] (.{0,20})")
# launch.py main's lines before any rank runs (read in 0.15.1); its end lines (exits successfully, received a signal) are not
_LAUNCH_START = re.compile(r"^(?:WORLD INFO DICT|nnodes=|global_rank_mapping=|dist_world_size=|Setting |process \d|"
                           r"\d{1,4} [A-Z_]{2,60}=|Disabling elastic)")
# a shell prompt and the command typed after it ("(env) user@host:~/dir$ bash run.sh", "$ deepspeed train.py")
_PROMPT = re.compile(r"^(?:\([\w.-]{1,60}\) ){0,3}(?:[\w.-]{1,60}@[\w.-]{1,100}:[^$#\s]{0,300})?[$#] \S")
_ELISION = re.compile(r"^(?:\.{3}|\u2026|\[\.\.\.\])$")


def _role(text: str) -> Optional[str]:
    """"launcher" (a start-up line of the launcher's), "other" (a prompt, an elision: allowed, not evidence), or
    None (anything else: a rank's output)."""
    if not text or _ELISION.match(text) or _PROMPT.match(text):
        return "other"
    m = _DS_LOG.match(text)
    if m is None:
        return None
    if m.group(1) == "launch" and not _LAUNCH_START.match(text[m.end(2) + 2:]):
        return None
    return "launcher"


def launcher_only(lines: Iterable[Tuple[int, bytes]], source: str, index: int = 0) -> List[Hit]:
    """The last line of a log (numbered, raw lines) that holds only the launcher's start-up, as a failure hit of kind
    ``failure.STARTUP``; [] for any other log (a line of a rank's output, no line from ``runner.py`` / ``launch.py``,
    more than :data:`MAX_LINES` lines)."""
    last: Optional[Tuple[int, str, str]] = None
    launched = False
    for n, (lineno, raw) in enumerate(lines):
        if n >= MAX_LINES:
            return []
        stream, text = clean(raw)
        text = text.strip()
        role = _role(text)
        if role is None:
            return []
        if role == "launcher":
            launched = launched or "[real_accelerator.py:" not in text
            last = (lineno, stream, text)
    if last is None or not launched:
        return []
    lineno, stream, text = last
    return [Hit(FM.STARTUP, source, lineno, stream, text[:1000], order=index * (1 << 40) + lineno)]
