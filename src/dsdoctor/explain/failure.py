"""The failure model: which lines of a log show that something failed, of what kind, and who raised it.

A run failed when any line shows it; ``no-failure`` is the answer only when none does. A failure line is:

- an exception, written anywhere in a line (prose, markdown ``**ValueError: ...**``, backticks, quotes, an
  ellipsis): Python's ``XxxError:`` / ``XxxException:`` at any position, bare ``Error:`` / ``Exception:`` at the
  start (not a warning's line, not ``error`` in an option's name, not ``except ValueError:``); at the start of a
  line also with a full-width colon (``ValueError：``, an input method's) or a semicolon (a retyped message);
- a compiler's or build tool's error (``file:12:3: error:``, ``fatal error:``, ``#error``, ``error: command ...``);
- the DeepSpeed launcher's ``[ERROR] ... sigkill_handler`` or ``Killing subprocess`` line, even cut before its
  return code; a non-zero exit code (``exit code 1``, ``return code = -9``, ``exitcode: 1``, ``exited with code 137``,
  Python's ``SystemExit: 2``, not ``SystemExit: 0``), or a signal's negative return code in prose (``it returns -9``,
  ``exited with -11``: Python's code for a process a signal ended);
- a signal (``SIGKILL``, ``Signals.SIGSEGV``, ``Segmentation fault``, ``core dumped``), ``Killed`` alone on a line, the
  shell's report of a child a signal ended (``Aborted``, ``Bus error`` alone; bash's ``line 9: 4711 Killed  python ...``),
  torchelastic's ``Received 15 death signal, shutting down workers`` (its agent was sent a signal; ``Received
  Signals.SIGINT death signal`` before Python 3.11);
- a run the user interrupted: a traceback ending in ``KeyboardInterrupt``; among the log's last lines, the terminal's
  echo of Ctrl-C (``^C`` at a line's start) or ``KeyboardInterrupt`` alone, with no new command typed after it
  (:func:`interrupted_at`: a run stopped by hand and started again is not the failure); people interrupt a run that
  stopped progressing;
- an NCCL watchdog timeout; ProcessGroupNCCL's ``Some NCCL operations have failed or timed out`` / ``... taking the
  entire process down`` lines, and its ``watchdog got stuck for N seconds`` (a hang in an NCCL / CUDA call);
- a failure no exception class marks: a GPU library's error head (``CUDA error: ...``, ``NCCL error in: ...``), a C++
  ``terminate called after throwing ...`` and its ``what():``, a failed C / CUDA-kernel ``Assertion `...` failed``, a
  module's exception whose message starts on the next line (``...errors.ChildFailedError:``), pip's ``ERROR: Failed
  building wheel`` / ``No matching distribution``, Slurm's ``srun: error:`` and ``*** JOB ... CANCELLED AT``,
  torchelastic's ``Worker group FAILED. 3/3 attempts left`` (a worker failed; the agent restarts the group);
- a stack dump of a stuck process: py-spy's ``Thread 123 (active): "MainThread"`` headers (or the ``py-spy dump``
  command that printed them), faulthandler's ``Timeout (0:30:00)!`` of ``dump_traceback_later`` and its thread headers
  (``Thread 0x7f3a... (most recent call first):``);
- a run that stops progressing: a log that ends on a progress bar that has finished no step (``0/4887
  [00:00<?, ?it/s]``: the run is stuck before its first step; :func:`stalled`, read on the log's last lines);
- a run whose loss diverged: the loss logged as nan / inf (``{'loss': nan, ...}``, ``loss=nan``);
- a command the shell could not find (``bash: numactl: command not found``, dash's ``/bin/sh: 1: pdsh: not found``,
  zsh's ``zsh: command not found: X``): a launcher, or the wrapper it runs, is missing;
- a traceback cut before its exception line (the scanner keeps it: ``Traceback.exc_text`` is empty), also a rich
  traceback's call line (``❱ 217 │ return tensor.pin_memory()``: rich.traceback marks the line each frame was running
  with ``❱``, and prints it only in a traceback) when its boxed header was cut from the paste;
- in a log that shows none of these, a line that is a message a library raises (the message index; a message one
  release only logs does not count), or a line that is only a quoted sentence saying something is incompatible, not
  supported, or must / cannot be (an application's guard message pasted without its class, :func:`quoted_guard`):
  ``explain/indexed_failures.py``, run only on that path;
- in such a log, all of it the DeepSpeed launcher's start-up (its command, the world info, no rank's output): the paste
  stops before the run did anything (``explain/startup.py``, on that path too), or a log that stops inside
  ``deepspeed.initialize``'s set-up (``explain/engine_init.py``, on that path too).

``kind`` classifies one cleaned line (the scanner calls it on each line the prefilter passes; ``LITERALS`` are what
the prefilter must pass for it); ``raised_by`` names the library that raised a traceback's exception. The advice for
each kind is :func:`dsdoctor.explain.causes.generic.unknown`'s.
"""

from __future__ import annotations

import re
from typing import List, Optional, Pattern, Sequence, Tuple

from ..knowledge import cuda as CK
from ..knowledge import deepspeed as K
from ..knowledge import distributed as K_DIST
from .raiser import library

EXCEPTION = "exception"  # an exception line (a traceback's, or one written alone / in prose)
CUT = "cut-traceback"  # a traceback with frames and no exception line: the log is cut
COMPILER = "compiler"  # a compiler's / build tool's error
LAUNCHER = "launcher"  # the launcher's report that a rank failed (it kills the others)
EXIT = "exit"  # a non-zero exit code
SIGNAL = "signal"  # a process killed by a signal (``Killed``: the kernel's OOM killer, most often)
TIMEOUT = "timeout"  # NCCL's watchdog: a collective did not finish
HANG = "hang"  # a stack dump of a process that does not progress (people dump a run that hangs), a stuck progress bar
DIVERGED = "diverged"  # the loss logged as nan / inf: training diverged
MISSING = "missing-command"  # the shell could not find a command (a launcher or a tool it runs)
STARTUP = "launcher-start-up"  # a log that holds only the launcher's start-up: no rank printed (``startup.py``)
ENGINE_INIT = "engine-init"  # a log that stops inside deepspeed.initialize's set-up (``engine_init.py``)
INTERRUPTED = "interrupted"  # the user stopped the run (Ctrl-C, KeyboardInterrupt): most often one that stopped progressing
# most telling first: the line quoted when a log shows several kinds
RANK = (EXCEPTION, COMPILER, TIMEOUT, SIGNAL, MISSING, DIVERGED, HANG, INTERRUPTED, CUT, LAUNCHER, EXIT, STARTUP, ENGINE_INIT)

_WATCHDOG = CK.MSG_NCCL_WATCHDOG.split("caught ")[1].rstrip(": ")  # "collective operation timeout"
_KILL = re.escape(K.MSG_LAUNCH_KILL.split("{")[0])  # "Killing subprocess "

# every line ``kind`` recognises holds one (the scanner's prefilter passes these lines)
LITERALS: Tuple[str, ...] = (
    "Error:", "Exception:", "error:", ": error ", "#error", "sigkill_handler", "Killing subprocess", "xit code", "xit status",
    "xited with code", "xited with status", "death signal", "SystemExit:",
    CK.MSG_NCCL_OPS_FAILED, CK.MSG_NCCL_TAKE_DOWN, CK.MSG_NCCL_WATCHDOG_STUCK,
    "eturn code", "exitcode", "SIGKILL", "SIGSEGV", "SIGABRT", "SIGBUS", "SIGTERM", "SIGILL", "SIGFPE", "Segmentation fault",
    "core dumped", "Killed", _WATCHDOG, " (active", " (idle", "py-spy dump", "Timeout (", "Error;", "Error\uff1a",
    "Exception;", "Exception\uff1a", "eturn -", "eturns -", "eturned -", "xits with -", "xited with -", "Aborted", "Bus error",
    "Illegal instruction", "Floating point exception", "Terminated", "Hangup", "Trace/breakpoint trap", " error in:",
    "terminate called after", "what():", "Assertion ", "ERROR: ", "srun: error:", "CANCELLED AT",
    "(most recent call first)", "\u2771",
    "command not found", ": not found", "attempts left", "': nan", "': inf", "': NaN", "=nan", "=inf", "=NaN",
    ": nan", ": inf", ": NaN")

_WARNING = re.compile(r"\[WARNING\]|Warning\b|\bWARN(?:ING)?\b|^W\d{4} ")
_EXC = re.compile(r"(?<![A-Za-z0-9_.])(?<!except )(?:[A-Za-z_]\w{0,60}\.){0,8}[A-Z]\w{0,80}(?:Error|Exception):\s{0,4}\S|"
                  r"^[\s*`'\">(\[]{0,6}(?:Error|Exception):(?:\s{0,4}\S|\s*$)")
_COMPILER = re.compile(r"^(?:\S{1,400}?(?::\d{1,7}(?::\d{1,5})?|\(\d{1,7}\)):\s|(?:gcc|g\+\+|c\+\+|cc1plus|clang\+{0,2}|nvcc|"
                       r"collect2|ld|cl|link|ninja)(?:\.exe)?: )?(?:fatal )?error(?: [A-Z]{1,3}\d{1,6})?:\s|"
                       r"^#\s?error\b|\berror: #error\b")
_GPU_LIBS = ("CUDA", "cuDNN", "CUDNN", "cuBLAS", "CUBLAS", "NCCL", "HIP", "MIOpen")
_SHELL_SIGNALS = "Aborted|Bus error|Illegal instruction|Floating point exception|Terminated|Hangup|Trace/breakpoint trap"
_KINDS: Tuple[Tuple[str, Pattern[str]], ...] = (
    (TIMEOUT, re.compile(re.escape(_WATCHDOG))),
    (LAUNCHER, re.compile(r"\[ERROR\].{0,80}sigkill_handler|sigkill_handler\]? %s|%s\d" % (_KILL, _KILL))),
    (SIGNAL, re.compile(r"\bSIG(?:KILL|SEGV|ABRT|BUS|TERM|ILL|FPE)\b|Segmentation fault|core dumped|^Killed\s*$")),
    (EXIT, re.compile(r"(?i:\bexit(?:ed with)? (?:code|status)|\breturn code|\bexitcode)\s{0,3}[:=]?\s{0,3}-?[1-9]\d{0,3}\b|"
                      r"returned non-zero exit status")),
    (COMPILER, _COMPILER),
    (HANG, re.compile(r'^Thread (?:0x[0-9a-fA-F]{1,16}|\d{1,10}) \((?:active|idle)[^)]{0,40}\)(?:: "[^"]{0,100}")?\s*$|'
                      r"\bpy-spy dump\b|^Timeout \(\d{1,3}:\d\d:\d\d\)!\s*$|"
                      # faulthandler's dump (dump_traceback_later, a signal registered with faulthandler.register)
                      r"^(?:(?:Current thread|Thread) 0x[0-9a-fA-F]{1,16} |Stack )\(most recent call first\):\s*$")),
)


# forms a person or a shell writes rather than a library: each tried only on a line holding one of its literals
_WRITTEN: Tuple[Tuple[str, Tuple[str, ...], Pattern[str]], ...] = (
    # the shell's report of a child a signal ended: alone, or bash's "line 9: 4711 Aborted  cmd"
    (SIGNAL, ("Killed", *_SHELL_SIGNALS.split("|")),
     re.compile(r"^(?:%s)\s*$|\bline \d{1,6}: {1,4}\d{1,8} (?:Killed|%s)\b" % ((_SHELL_SIGNALS,) * 2))),
    # torchelastic's agent stopped by a signal sent to it (a scheduler's time limit or preemption, a kill): "Received 15
    # death signal, shutting down workers" (torch 2.0.0-2.15.0 torch/distributed/elastic/agent/server/api.py
    # SimpleElasticAgent.run; the number is str(signal.Signals) on Python 3.11+, "Signals.SIGTERM" before: a SIG line)
    # (SIGINT, 2: the user's Ctrl-C reached the agent, an interrupt rather than a kill)
    (INTERRUPTED, ("death signal",), re.compile(r"\bReceived (?:2|Signals\.SIGINT) death signal\b")),
    (SIGNAL, ("death signal",), re.compile(r"\bReceived (?:\d{1,2}|Signals\.SIG[A-Z]{2,6}) death signal\b")),
    # Python's SystemExit (a BaseException, not an ...Error) with a non-zero code or a message: sys.exit(1),
    # sys.exit("message") (exit status 1), argparse's exit 2 as a notebook shows it; "SystemExit: 0" / "None" succeeded
    (EXIT, ("SystemExit:",), re.compile(r"^[\s*`'\">(\[]{0,6}SystemExit: {0,4}(?!(?:0|None)\s*$)\S")),
    # a signal's code in prose ("the run returns -9"), not code ("return -1;"): signal numbers, after a word
    (EXIT, (" -",), re.compile(r"\w (?:return(?:s|ed)?|exit(?:s|ed) with) -(?:[4-9]|11|15)\b(?!\.\d|\s{0,2}[;)])")),
    # an exception class at the line's start, then a full-width colon (an input method's) or a semicolon (retyped)
    (EXCEPTION, (";", "\uff1a"),
     re.compile(r"^[\s*`'\">(\[]{0,6}(?:[A-Za-z_]\w{0,60}\.){0,8}[A-Z]\w{0,80}(?:Error|Exception)[;\uff1a]\s{0,4}[^\s;]")),
    # a module's exception whose message starts on the next lines (torchrun's "...errors.ChildFailedError:")
    (EXCEPTION, ("Error:", "Exception:"),
     re.compile(r"(?:^|[\s*`'\">(\[])(?:[A-Za-z_]\w{0,60}\.){1,8}[A-Z]\w{0,80}(?:Error|Exception):\s*$")),
    # a GPU library's error as torch / the library formats it, alone or in prose ("CUDA error: an illegal memory
    # access ..."), a C++ exception that ended the process (its "what():" line), a failed C / CUDA-kernel assert
    (EXCEPTION, (*_GPU_LIBS, "terminate called after", "what():", "Assertion "),
     re.compile(r"\b(?:%s) error(?: in)?:\s{0,4}\S|terminate called after throwing an instance of|^what\(\):\s|"
                r"\bAssertion [`'].{1,400}['`] failed" % "|".join(_GPU_LIBS))),
    # torch's ProcessGroupNCCL ending the process after a collective failed or timed out (its watchdog's line may be
    # cut or elsewhere), and its heartbeat monitor finding the watchdog itself blocked in an NCCL / CUDA call (a hang)
    (EXCEPTION, (CK.MSG_NCCL_OPS_FAILED, CK.MSG_NCCL_TAKE_DOWN),
     re.compile("%s|%s" % (re.escape(CK.MSG_NCCL_OPS_FAILED), re.escape(CK.MSG_NCCL_TAKE_DOWN)))),
    (HANG, (CK.MSG_NCCL_WATCHDOG_STUCK,), re.compile(re.escape(CK.MSG_NCCL_WATCHDOG_STUCK) + r"\d{1,9} seconds")),
    # pip's own report: a build that failed (its compiler output is above), an install it could not resolve
    (COMPILER, ("ERROR: ",), re.compile(r"^ERROR: (?:Failed building wheel|Could not build wheels|Failed to build|"
                                          r"Command errored out)")),
    (EXCEPTION, ("ERROR: ",), re.compile(r"^ERROR: (?:No matching distribution|Could not find a version that satisfies|"
                                           r"Could not install packages|Cannot install|ResolutionImpossible)")),
    # the loss logged as nan / inf: the Trainer's dict ({'loss': nan}), a loop's "loss=nan" / "loss: nan"
    (DIVERGED, ("nan", "inf", "NaN"),
     re.compile(r"(?<![\w.])['\"]?(?:[A-Za-z]\w{0,30}_)?loss['\"]?\s{0,2}[:=]\s{0,2}['\"]?[-+]?(?i:nan|inf)\b")),
    # the shell's report of a command it cannot find: bash (interactive, or a script's "x.sh: line 3: "), zsh, and dash
    # (Debian / Ubuntu's /bin/sh): "/bin/sh: 1: X: not found" (sh -c: os.system, subprocess shell=True), a script it
    # runs: "run.sh: 42: X: not found" (dash 0.5.12), "run.sh: 42: run.sh: X: not found" (older dash prints the
    # script's name twice)
    (MISSING, ("command not found", ": not found"),
     re.compile(r"(?:^|[\s\]:-])(?:\S{0,200}: line \d{1,6}: |bash: |sh: )(?P<bash>[\w./+-]{1,200}): command not found\s*$|"
                r"^%s(?P<dash>[\w./+-]{1,200}): not found\s*$|\bzsh: command not found: "
                r"(?P<zsh>[\w./+-]{1,200})\s*$" % K_DIST.DASH_PREFIX)),
    # torchelastic's agent restarting a worker group it saw fail (a worker exited non-zero, or failed its health check):
    # "[default] Worker group FAILED. 3/3 attempts left; will restart worker group" (torch 2.0.0-2.9.1
    # torch/distributed/elastic/agent/server/api.py SimpleElasticAgent._invoke_run; logged, not raised)
    (LAUNCHER, ("attempts left",), re.compile(r"\] Worker group (?:FAILED|UNHEALTHY)\. \d{1,6}/\d{1,6} attempts left")),
    # rich.traceback's call line of a frame ("❱ 217 │ ..."), outside a traceback the scanner opened: its boxed
    # "Traceback (most recent call last)" header is not in the paste, so the traceback is read as cut
    (CUT, ("\u2771",), re.compile(r"^\u2771\s{0,4}\d{1,7}\s{0,4}[\u2502|]")),
    # Slurm: a task that failed or was killed (srun), a job the scheduler cancelled (time limit, preemption)
    (LAUNCHER, ("srun: error:", "CANCELLED AT"),
     re.compile(r"^srun: error: |\*\*\* (?:JOB|STEP) [\w.]{1,40} ON \S{1,200} CANCELLED AT")),
)


# a line that is only a quoted sentence (an application's own guard message pasted without its exception class,
# ``'ZeRO3 is incompatible with LoRA when finetuning on base model.'``) saying what cannot be: read only in a log that
# shows no other failure (``explain/indexed_failures.py``), and not when the message index knows it as logged
_QUOTED = re.compile("^(?:> ?)?([`'\"\u201c\u2018])(?P<s>[A-Za-z][^`'\"\u201c\u201d\u2018\u2019]{14,400})"
                     "[`'\"\u201d\u2019]\\s*$")
_GUARD = re.compile(r"\b(?:(?:is|are) (?:incompatible|not (?:supported|compatible|allowed|implemented))|"
                    r"(?:is|are) only supported|(?:cannot|can ?not|can't|must(?: not)?|should not|only supports?) [a-z]|"
                    r"not supported\b|unsupported\b|incompatible with\b)", re.I)


def quoted_guard(text: str) -> bool:
    """``text`` (a cleaned, stripped line) is only a quoted sentence that says something is incompatible, not
    supported, or must / cannot be: a guard's message (a ValueError's text) pasted in quotes without its class."""
    m = _QUOTED.match(text)
    return bool(m and " " in m.group("s").strip() and _GUARD.search(m.group("s")))


def missing_command(text: str) -> str:
    """The command a shell's "not found" line (bash, dash, zsh: a ``missing-command`` failure) names, or ""."""
    m = next(rx for name, _, rx in _WRITTEN if name == MISSING).search(text)
    return next((g for g in (m.group("bash"), m.group("dash"), m.group("zsh")) if g), "") if m else ""


def interrupted(exc_text: str) -> bool:
    """A traceback's exception line is Python's ``KeyboardInterrupt`` (the user pressed Ctrl-C)."""
    return re.match(r"^KeyboardInterrupt\b", exc_text.strip()) is not None


def kind(text: str) -> Optional[str]:
    """The kind of failure one cleaned, stripped line shows, or None."""
    for name, rx in _KINDS:
        if rx.search(text):
            return name
    for name, lits, rx in _WRITTEN:
        if any(lit in text for lit in lits) and rx.search(text) and not (name == EXCEPTION and _WARNING.search(text)):
            return name
    if _EXC.search(text) and not _WARNING.search(text):
        return EXCEPTION
    return None


# a progress bar (tqdm's format: "0%|   | 0/4887 [00:00<?, ?it/s]"); one that has finished no step has no rate yet
_BAR = re.compile(r"(?:^|[\s|:])(\d{1,10})/(\d{1,10}) \[(?:\d{1,3}:)?\d{1,2}:\d\d<")
_NO_STEP = re.compile(r"(?:^|[\s|:])0/[1-9]\d{0,9} \[(?:\d{1,3}:)?\d{1,2}:\d\d<\?, \?(?:it|s)/(?:s|it)\]\s*$")
STALL_LINES = 3  # the log's last lines a stuck bar may be in (another writer's lines may follow it: a warning, a logger)


def no_step(text: str) -> bool:
    """``text`` (a cleaned, stripped line) is a progress bar that has finished no step."""
    return bool(_NO_STEP.search(text))


def stalled(last: Sequence[str]) -> int:
    """The index in ``last`` (the log's last lines, cleaned and stripped) of a progress bar that finished no step and
    that no later line moved on (a bar of the same total further on), within the last :data:`STALL_LINES`; -1 when
    none: the run stopped before its first step (people paste the end of a stuck run). A bar that moved, or one
    followed by more output than that, is no stall."""
    start = max(0, len(last) - STALL_LINES)
    for i in range(len(last) - 1, start - 1, -1):
        if no_step(last[i]):
            total = _BAR.search(last[i])
            later = [_BAR.search(t) for t in last[i + 1:]]
            if total and not any(m and m.group(2) == total.group(2) for m in later):
                return i
    return -1


# a shell prompt and the command typed after it ("(env) user@host:~/dir$ bash run.sh", "$ deepspeed train.py")
PROMPT = re.compile(r"^(?:\([\w.-]{1,60}\) ){0,3}(?:[\w.-]{1,60}@[\w.-]{1,100}:[^$#\s]{0,300})?[$#] \S")
_INTERRUPT = re.compile(r"^(?:\^C|KeyboardInterrupt\s*$)")  # the terminal's Ctrl-C echo (output may follow it), Python's


def interrupted_at(last: Sequence[str]) -> int:
    """The index in ``last`` (the log's last lines, cleaned and stripped) of the last line showing the user interrupted
    the run (the terminal's ``^C`` echo at a line's start, ``KeyboardInterrupt`` alone) when no shell prompt with a new
    command follows it; -1 when none (an interrupted run started again is not the failure)."""
    for i in range(len(last) - 1, -1, -1):
        if PROMPT.match(last[i]):
            return -1
        if _INTERRUPT.match(last[i]):
            return i
    return -1


def most_telling(kinds: Sequence[str]) -> int:
    """The index of the most telling kind in ``kinds`` (the first of the best rank; -1 when empty)."""
    best, at = len(RANK), -1
    for i, k in enumerate(kinds):
        r = RANK.index(k) if k in RANK else len(RANK) - 1
        if r < best:
            best, at = r, i
    return at


# ------------------------------------------------------------------------------------------- who raised it

_PKG = re.compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_]\w{0,60})")
# pip's build directories: an exception raised there is a package's build (its setup.py), not the user's code
PIP_BUILD = re.compile(r"[/\\]pip-(?:req-build|install|build-env|wheel)-[\w.-]{1,100}[/\\]")
_OP_BUILDER = re.compile(r"[/\\](op_builder)[/\\]")
_EXC_MODULE = re.compile(r"^[\s*`'\"]{0,6}([a-z_]\w{0,60})\.(?:[\w.]{0,200}\.)?[A-Z]\w{0,80}(?:Error|Exception)\b")
_DS_LOGGER = re.compile(r"\[(?:ERROR|WARNING|INFO)\]\s?\[(\w{1,60}\.py):\d{1,6}:(\w{1,100})\]")


def site_package(path: str) -> str:
    """The package installed in site-packages that a frame's file belongs to ("" when none)."""
    m = _PKG.search(path)
    return m.group(1) if m else ""


def package(path: str) -> str:
    """The library a frame's file belongs to: an installed package, or a library's source checkout (``raiser.library``:
    a DeepSpeed tree by its subpackages, not a user's folder named deepspeed), or DeepSpeed's ``op_builder`` ("" when
    none: the user's code or Python's)."""
    lib = library(path)
    m = _OP_BUILDER.search(path)
    return lib[0] if lib else (m.group(1) if m else "")


def raised_by(frames: Sequence[Tuple[str, int, str]], exc_text: str) -> str:
    """Who raised the failure: the innermost library frame (``torch (all_reduce, .../distributed_c10d.py:3404)``),
    else the module prefix of the exception or the logger's file and function; "" when nothing says."""
    for path, line, func in reversed(frames):
        pkg = package(path)
        if pkg:
            return f"{pkg} ({func}, {path}:{line})"
        if PIP_BUILD.search(path):
            return f"a package's build run by pip ({func}, {path}:{line})"
    m = _EXC_MODULE.search(exc_text)
    if m and m.group(1) not in ("builtins", "__main__"):
        return m.group(1)
    m = _DS_LOGGER.search(exc_text)
    if m:
        return f"deepspeed ({m.group(1)} {m.group(2)})"
    return ""


def packages(frames: Sequence[Tuple[str, int, str]]) -> List[str]:
    """The installed packages in the frames, innermost first, once each."""
    out: List[str] = []
    for path, _, _ in reversed(frames):
        pkg = package(path)
        if pkg and pkg not in out:
            out.append(pkg)
    return out
