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
address of ...``); DeepSpeed 0.5's ``launch.py`` printed the node's env vars as ``0 NCCL_VERSION 2.7.8`` (``"%s %s %s"``).
``launch.py``'s end lines (``Process N exits successfully.``, ``Main process received SIGTERM``, ``Killing subprocess``)
are not start-up: a log holding one is not this. A paste that lost the first character of its first line
(``2021-11-03 14:41:15,165] [WARNING] ...``) is read as the line it was. With the multi-node runner, ssh's own
``Warning: Permanently added '[host]:port' (RSA) to the list of known hosts.`` (pdsh connecting) is allowed, not
evidence.

torchrun's start-up is the same kind of paste: ``torch/distributed/run.py`` main's banner (read in torch 2.14.1: the
``Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, ...`` warning between two rows of
asterisks when more than one process per node is started, ``master_addr is only used for static rdzv_backend ...``,
``node_rank is only used for static rdzv_backend ...``), under its logger's header as Python's ``logging`` prints it
(``WARNING:torch.distributed.run:``) or as torch's glog-style prefix does (``W1203 10:00:00.123000 4711
.../torch/distributed/run.py:793] ``)."""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Tuple

from .. import names as N
from ..knowledge import cuda as CK
from ..knowledge import deepspeed as DK
from ..knowledge import ds_launcher as K
from . import failure as FM
from .match import Hit
from .reader import clean

MAX_LINES = 400  # a start-up is a few dozen lines (one per host and rank at most); a longer log is something else

# DeepSpeed's logger: "[2024-09-24 17:19:00,072] [INFO] [runner.py:585:main] ..." (the time may be dropped)
_DS_LOG = re.compile(r"^(?:\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] )?\[(?:INFO|WARNING)\] "
                     r"\[(runner|multinode_runner|real_accelerator|launch)\.py:\d{1,6}:(\w{1,60})\] (.{0,20})")
# launch.py main's lines before any rank runs (read in 0.15.1); its end lines (exits successfully, received a signal) are not
_LAUNCH_START = re.compile(r"^(?:WORLD INFO DICT|nnodes=|global_rank_mapping=|dist_world_size=|Setting |process \d|"
                           r"\d{1,4} [A-Z_]{2,60}[= ]|Disabling elastic)")
_PROMPT = FM.PROMPT  # a shell prompt and the command typed after it
_ELISION = re.compile(r"^(?:\.{3}|\u2026|\[\.\.\.\])$")
# ssh's notice when pdsh first connects to a host (the multi-node runner's transport), not a rank's output
_SSH_KNOWN = re.compile(r"^Warning: Permanently added '?\S{1,300}'? \(\w{1,20}\) to the list of known hosts\.?$")
# torchrun's banner (torch/distributed/run.py main): its logger's header, alone (Python logging) or before the message
# (torch's glog-style prefix), the asterisk rows around the OMP_NUM_THREADS warning, and the warnings themselves
_TORCHRUN_HEAD = re.compile(r"^(?:(?:WARNING|INFO):torch\.distributed\.run:|"
                            r"[WI]\d{4} \d\d:\d\d:\d\d\.\d{1,9} \d{1,12} \S{0,300}torch/distributed/run\.py:\d{1,6}\]) ?")
_TORCHRUN_TEXT = re.compile(r"^(?:\*{10,80}|Setting OMP_NUM_THREADS environment variable for each process to be \d|"
                            r"master_addr is only used for static rdzv_backend|node_rank is only used for static rdzv_backend)")


_BANNER_ONLY = re.compile(r"^\*{10,80}$")


def _torchrun_message(text: str) -> Optional[str]:
    """The text after torchrun's logger header ("" for the header alone), or None for a line without one (a bare
    banner line is its own text)."""
    head = _TORCHRUN_HEAD.match(text)
    if head is not None:
        return text[head.end():].strip()
    return text if _TORCHRUN_TEXT.match(text) else None


def _role(text: str) -> Optional[str]:
    """"launcher" (a start-up line of the launcher's), "other" (a prompt, an elision: allowed, not evidence), or
    None (anything else: a rank's output)."""
    if not text or _ELISION.match(text) or _PROMPT.match(text) or _SSH_KNOWN.match(text):
        return "other"
    rest = _torchrun_message(text)
    if rest is not None and (not rest or _TORCHRUN_TEXT.match(rest)):
        return "launcher"
    m = _DS_LOG.match(text)
    if m is None:
        return None
    if m.group(1) == "launch" and not _LAUNCH_START.match(text[m.end(2) + 2:]):
        return None
    return "launcher"


# a hostfile's line as DeepSpeed's runner reads it (runner.py _parse_hostfile: r'^(\S+)\s+slots=(\d+)', 0.3-0.19.8)
_HOSTFILE_LINE = re.compile(r"^(?P<host>\S{1,300})\s{1,20}slots=\d{1,6}\s*$")
_LOCAL = ("localhost", "127.0.0.1")

_IFNAME = re.compile(r"\b%s=([\w.,^=-]{1,100})" % CK.NCCL_SOCKET_IFNAME)


def _hints(text: str) -> Dict[str, str]:
    """What a launcher line says the launch does next (the runner's ``cmd = ...``): ``binds`` (``--bind_cores_to_rank``:
    launch.py starts each rank under numactl), ``pdsh`` (the multi-node runner: each node's ranks start through ssh
    with only the variables the command exports), ``ifname`` (an NCCL_SOCKET_IFNAME the command forces)."""
    out: Dict[str, str] = {}
    if K.BIND_CORES_FLAG in text:
        out["binds"] = "1"
    if "] cmd = pdsh " in text:
        out["pdsh"] = "1"
    m = _IFNAME.search(text)
    if m:
        out["ifname"] = m.group(1).rstrip(";")
    return out


def launcher_only(lines: Iterable[Tuple[int, bytes]], source: str, index: int = 0) -> List[Hit]:
    """The last line of a log (numbered, raw lines) that holds only the launcher's start-up, as a failure hit of kind
    ``failure.STARTUP``; [] for any other log (a line of a rank's output after the launcher's first line, no line
    from ``runner.py`` / ``launch.py``, more than :data:`MAX_LINES` lines). Lines above the launcher's first line are
    what the person pasted before its output (their words, the hostfile or config they used, the command): no rank
    runs before the launcher has printed, and a failure there would have answered already (this runs on no-failure
    logs)."""
    last: Optional[Tuple[int, str, str]] = None
    launched, torchrun = False, False
    hints: Dict[str, str] = {}
    for n, (lineno, raw) in enumerate(lines):
        if n >= MAX_LINES:
            return []
        stream, text = clean(raw)
        text = text.strip()
        role = _role(text)
        if role is None and last is None:  # above the launcher's first line: what the person pasted first (never a rank's)
            continue
        if role is None:
            return []
        if role == "launcher":
            launched = launched or "[real_accelerator.py:" not in text
            torchrun = torchrun or _DS_LOG.match(text) is None
            hints.update(_hints(text))
            banner = _torchrun_message(text)
            if last is None or not (banner == "" or (banner and _BANNER_ONLY.match(banner))):  # a message, not a header
                last = (lineno, stream, text)
    if last is None or not launched:
        return []
    lineno, stream, text = last
    groups = {"launcher": "torchrun" if torchrun else "deepspeed", **hints}
    return [Hit(FM.STARTUP, source, lineno, stream, text[:1000], groups=groups, order=index * (1 << 40) + lineno)]


def unread_hostfile(lines: Iterable[Tuple[int, bytes]], source: str, index: int = 0) -> List[Hit]:
    """The deepspeed runner's ``Unable to find hostfile`` warning as a ``hostfile-not-found`` hit, when the log shows,
    above it, the lines of a hostfile naming hosts other than this one (people paste the hostfile they meant, then the
    launcher's output): the runner read no hostfile and started this node only, whatever the run did next; [] else
    (within the first :data:`MAX_LINES` lines)."""
    hosts: List[str] = []
    for n, (lineno, raw) in enumerate(lines):
        if n >= MAX_LINES:
            break
        stream, text = clean(raw)
        text = text.strip()
        m = _HOSTFILE_LINE.match(text)
        if m and m.group("host").split("@")[-1] not in _LOCAL:
            hosts.append(m.group("host"))
        elif hosts and DK.MSG_NO_HOSTFILE in text:
            return [Hit(N.HOSTFILE_NOT_FOUND, source, lineno, stream, text[:1000], groups={"hosts": ",".join(hosts[:8])},
                        order=index * (1 << 40) + lineno)]
    return []
