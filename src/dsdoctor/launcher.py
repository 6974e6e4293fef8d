"""The user's launcher (``deepspeed`` / ``torchrun`` / ``accelerate launch``) as ``dsdoctor launch`` runs it
(:mod:`dsdoctor.commands.launch`): read its command line (interpreter, hostfile, include/exclude), the
``.deepspeed_env`` lines a multi-node run needs, the per-node pre-build command, running it with signals passed
through and its output relayed, and its log explained when it fails."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
from typing import Callable, Dict, List, Optional, Sequence

from .knowledge import deepspeed as K
from .model import Report

_SKIP = frozenset({"CUDA_VISIBLE_DEVICES"})  # the launcher sets it per node itself
_LOG_CAP = 32 << 20  # bytes of launcher output kept for explain (the tail)


def launcher_python(argv: Sequence[str]) -> Optional[str]:
    """The interpreter the launcher runs: ``python -m ...`` itself, or the ``#!`` line of ``deepspeed`` /
    ``torchrun`` / ``accelerate``."""
    if not argv:
        return None
    exe = shutil.which(argv[0]) or argv[0]
    if os.path.basename(exe).startswith("python"):
        return exe
    try:
        with open(exe, "rb") as fh:
            first = fh.readline(512).decode("utf-8", "replace")
    except OSError:
        return None
    if first.startswith("#!"):
        parts = first[2:].split()
        if parts and os.path.basename(parts[0]).startswith("python"):
            return parts[0]
    return None


def launcher_opt(argv: Sequence[str], short: str, long: str) -> Optional[str]:
    """The value of ``short``/``long`` on a deepspeed command line (before the script), else None."""
    for i, a in enumerate(argv):
        if a in (short, long) and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(long + "="):
            return a.split("=", 1)[1]
        if a.endswith(".py"):
            break
    return None


def hostfile_of(argv: Sequence[str]) -> Optional[str]:
    """``-H/--hostfile`` of a deepspeed command line (before the script), else None."""
    return launcher_opt(argv, "-H", "--hostfile")


def needed_env_lines(env: Dict[str, str], have: Dict[str, str]) -> List[str]:
    """``K=V`` lines for the variables set here that a multi-node launch would not forward."""
    from packaging.version import Version

    prefixes = K.export_env_prefixes(Version("999"), "cuda")  # current DeepSpeed, CUDA accelerator
    out = []
    for k in sorted(env):
        if k in _SKIP or k in have or k.startswith(prefixes):
            continue
        if k in K.MULTINODE_ENV_VARS or k.startswith(K.MULTINODE_ENV_PREFIXES):
            out.append(f"{k}={env[k]}")
    return out


def append_env_file(path: str, lines: Sequence[str]) -> None:
    """Append ``lines`` to ``path`` atomically, keeping every existing line."""
    old = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            old = fh.read()
    if old and not old.endswith("\n"):
        old += "\n"
    from .atomic import write_text

    write_text(path, old + "".join(line + "\n" for line in lines), errors="surrogateescape")


def prebuild_command(python: str, env: Optional[Dict[str, str]] = None) -> str:
    """Shell command that builds cpu_adam once with DeepSpeed's own builder, with ``env`` (what the launcher
    forwards) applied; every piece is ``shlex.quote``-d."""
    code = "from deepspeed.ops.op_builder import CPUAdamBuilder; CPUAdamBuilder().load(); print('DSDOCTOR-PREBUILT')"
    pairs = " ".join(shlex.quote(f"{k}={v}") for k, v in sorted((env or {}).items()) if k.isidentifier())
    return ("env " + pairs + " " if pairs else "") + f"{shlex.quote(python)} -c {shlex.quote(code)}"


def run_launcher(argv: Sequence[str], echo: Callable[[bytes], None]) -> "tuple[int, str]":
    """Run the launcher as a child (arguments unchanged), echo its output, forward SIGINT/SIGTERM/SIGHUP;
    (exit code, tail of the log)."""
    proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sigs = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    old = {s: signal.getsignal(s) for s in sigs}

    def forward(signum: int, _frame: object) -> None:
        if proc.poll() is None:
            proc.send_signal(signum)

    for s in sigs:
        signal.signal(s, forward)
    buf = bytearray()
    try:
        out = proc.stdout
        assert out is not None
        for chunk in iter(lambda: os.read(out.fileno(), 65536), b""):
            echo(chunk)
            buf += chunk
            if len(buf) > 2 * _LOG_CAP:
                del buf[:-_LOG_CAP]
        rc = proc.wait()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if rc < 0:  # killed by a signal: the shell convention
        rc = 128 - rc
    return rc, buf.decode("utf-8", "replace")


def explain_failure(log: str, rc: int) -> Report:
    """The launcher's log explained (``dsdoctor explain``), headed by a launch-failed finding."""
    from .explain.causes.generic import LAUNCH_DOCS, LAUNCH_SYMPTOM
    from .explain.diagnose import diagnose_log
    from .model import Evidence, Finding, Severity

    rep = diagnose_log(log, source="launcher output")
    rep.findings.insert(0, Finding(name=LAUNCH_SYMPTOM, severity=Severity.ERROR,
                                   title=f"the launcher exited with code {rc}; the log explained below",
                                   explanation=LAUNCH_DOCS.why,
                                   evidence=(Evidence(what=f"exit code {rc}", where="launcher"),), section="Launch"))
    return rep


def write_stdout(chunk: bytes) -> None:
    """The launcher's output, relayed verbatim (not redacted: it is the user's program output, as without dsdoctor)."""
    from .redact_streams import passthrough

    out = passthrough()
    out.write(chunk)
    out.flush()
