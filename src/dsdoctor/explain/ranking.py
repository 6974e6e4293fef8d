"""What diagnose weighs besides which signatures matched: the platform the log ran on (a fact that vetoes fixes
and turns an op-build cause into the Windows answer), an error the library handled (it ranks below a later one
that ended the run), and a run killed with no exception (the launcher killing its ranks, the host-memory trend
before it)."""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional

from .. import names as N
from ..knowledge import deepspeed as K
from . import failure as FM
from .causes.cause import lit
from .match import Hit, Scanner

# A native Windows run: a drive path, a Windows site-packages, a compiled module (.pyd), setuptools' easy_install
# launcher, MSVC's compiler or linker. WSL runs Linux (its paths are /mnt/c/...): its fixes apply.
_WINDOWS = re.compile(r"(?:^|[\s\"'(=\[])[A-Za-z]:\\\\?[\w$ .-]{1,200}\\|\\Lib\\site-packages\\|\w\.pyd\b|easy_install-|"
                      r"\bLNK\d{4}\b|\bcl\.exe\b|\bMSVC\b")
_WSL = re.compile(r"microsoft-standard-WSL|\bWSL2?\b|/mnt/[c-z]/")
_MACOS = re.compile(r"^/Users/\w|[\s\"'(]/Users/\w|/Library/Frameworks/Python\.framework/|\.dylib\b|\bdarwin\b")

# causes that are an op build failing: on native Windows the answer is that ops cannot be built there at all
OP_BUILD_CAUSES = (N.LIBAIO_MISSING, N.OP_BUILD_FAILED_CAUSE_NOT_IN_LOG, N.CUDA_LIBS_MISSING, N.PYTHON_HEADERS_MISSING,
                   N.HOST_COMPILER_UNSUPPORTED, N.CUDA_HEADERS_MISSING, N.NINJA_MISSING, N.OP_BUILD_FAILED)
HANDLED_NEAR = 3  # lines between an error and the line saying it was handled (either order: pastes reorder them)
# the exit code in DeepSpeed's launcher line ("... exits with return code = -9") or torchrun's ("exitcode: -9")
_RC = re.compile(r"(?:%s|exitcode: )(-?\d{1,4})" % re.escape(K.MSG_LAUNCH_EXIT.split("{cmd} ")[1].split("{")[0]))
_PCT = re.compile(lit(K.MSG_HOST_MEMORY.split("  ")[1]))  # "used = {used} GB, percent = {pct}%"
# a process ended by SIGKILL: Python's -9, a shell's 137 (128 + 9), the signal's name, the shell's "Killed"
_SIGKILL = re.compile(r"(?<![\w.])-9\b|\b137\b|\bSIGKILL\b|^Killed\s*$|\d {1,4}Killed\b")
HIGH_PCT = 90.0  # a host-memory report at or above this share of RAM: the host was nearly full


def _texts(sc: Scanner) -> Iterable[str]:
    for tb in sc.tracebacks:
        yield from (f.path for f in tb.frames)
        yield tb.exc_text
    for hits in sc.hits.values():
        yield from (h.text for h in hits)
    yield from (h.text for h in sc.symptoms + sc.notes + sc.warnings)
    yield from (t for _, _, t in sc.tail)


def platform(sc: Scanner) -> str:
    """``windows`` (native), ``wsl``, ``macos`` or ``""`` (Linux, or not shown), read from paths and tool messages."""
    found = ""
    for text in _texts(sc):
        if _WSL.search(text):
            return "wsl"
        if not found and _WINDOWS.search(text):
            found = "windows"
        elif not found and _MACOS.search(text):
            found = "macos"
    return found


def handled(h: Hit, sc: Scanner) -> bool:
    """The library handled the error on ``h``'s line: a line next to it says it falls back or saves another way
    (Transformers' Trainer catching the 16-bit gather ValueError and saving the full checkpoint)."""
    return any(m.source == h.source and abs(m.line - h.line) <= HANDLED_NEAR for m in sc.marks["handled"])


def silent_kill(sc: Scanner) -> Optional[List[Hit]]:
    """The launcher killed its ranks and no rank printed an exception (the caller checks there is none), with no
    exit code other than SIGKILL's shown, and either SIGKILL's code (-9) or host-RAM evidence before the kill
    (DeepSpeed's host-memory report, or a checkpoint load as the last thing logged): the lines that show it, that
    evidence first. None when the log shows no kill, another exit code (a
    segfault, an exit of 1 whose traceback the paste left out), or a kill with neither (an honest unknown)."""
    kills = list(sc.marks["kill"])
    if not kills:
        return _killed_when_full(sc)
    codes = [m.group(1) for m in (_RC.search(e.text) for e in sc.marks["exit"]) if m]
    if any(c != "-9" for c in codes):
        return None
    # host RAM evidence before the kill: DeepSpeed's memory report, or a checkpoint load (each rank reads its
    # shards, optimizer states included, into host RAM) as the last thing logged before it
    before = [h for kind in ("memory", "load") for h in sc.marks[kind] if h.order < kills[0].order]
    memory = sorted(before, key=lambda h: h.order)[-1:]
    if not memory and "-9" not in codes:
        return None  # a kill and nothing else (no SIGKILL code, no memory evidence): the cause is not in the log
    return memory + kills[:1]


def _killed_when_full(sc: Scanner) -> Optional[List[Hit]]:
    """No launcher kill, but every failure line shows SIGKILL (``-9``, 137, ``Killed``; in prose too: "it returns -9")
    and DeepSpeed's last host-memory report shows the host nearly full (:data:`HIGH_PCT`): that report and the kill.
    Order is not asked (a paste's prose says the code first); the nearly full report is what names the OOM killer."""
    shown = [h for h in sc.failures if h.name != FM.LAUNCHER]
    if not shown or not all(h.name in (FM.EXIT, FM.SIGNAL) and _SIGKILL.search(h.text) for h in shown):
        return None
    last = sorted(sc.marks["memory"], key=lambda h: h.order)[-1:]
    full = [h for h in last if float(memory_groups([h]).get("pct", "0")) >= HIGH_PCT]
    return full + shown[:1] if full else None


def memory_groups(hits: List[Hit]) -> Dict[str, str]:
    """``used`` (GB) and ``pct`` from DeepSpeed's host-memory report among ``hits`` (empty when none)."""
    for h in hits:
        m = _PCT.search(h.text)
        if m:
            return {"used": m.group("used"), "pct": m.group("pct")}
    return {}
