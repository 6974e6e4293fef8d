"""Run one command on many nodes: ``ssh`` (BatchMode, ConnectTimeout, one process per host, in parallel),
``pdsh`` (``-R ssh``, its own fan-out) or ``srun`` (inside a Slurm allocation). Returns per-host output.

Every argv is a list (no local shell). The remote command is built only from dsdoctor's own text and
``shlex.quote``-d validated values; host names were validated by ``hosts.check_host``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence

from ..probes.run import kill_tree
from .hosts import check_host

TRANSPORTS = ("auto", "ssh", "pdsh", "srun")


@dataclass
class HostOutput:
    host: str
    returncode: Optional[int]  # None: timed out
    stdout: str
    stderr: str
    seconds: float


def pick(transport: str, env: Mapping[str, str]) -> str:
    """``auto``: srun inside a Slurm allocation, else pdsh when installed (the launcher's default), else ssh."""
    if transport != "auto":
        return transport
    if env.get("SLURM_JOB_ID") and shutil.which("srun", path=env.get("PATH")):
        return "srun"
    return "pdsh" if shutil.which("pdsh", path=env.get("PATH")) else "ssh"


def ssh_argv(host: str, command: str, connect_timeout: int) -> List[str]:
    return ["ssh", "-o", "BatchMode=yes", "-o", f"ConnectTimeout={connect_timeout}", "-o", "LogLevel=ERROR",
            "-T", "--", check_host(host), command]


def _communicate(argv: Sequence[str], stdin: Optional[str], timeout: float,
                 env: Optional[Mapping[str, str]] = None) -> HostOutput:
    t0 = time.monotonic()
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                            start_new_session=True, env=None if env is None else dict(env))
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        rc: Optional[int] = proc.returncode
    except subprocess.TimeoutExpired:
        kill_tree(proc.pid)
        out, err = proc.communicate()
        rc = None
    return HostOutput("", rc, out, err, time.monotonic() - t0)


def run_ssh(hosts: Sequence[str], command: str, stdin: Optional[str], timeout: float,
            connect_timeout: int = 10, parallel: int = 64) -> Dict[str, HostOutput]:
    """One ``ssh`` per host, ``parallel`` at a time, each bounded by ``timeout`` seconds."""

    def one(h: str) -> HostOutput:
        got = _communicate(ssh_argv(h, command, connect_timeout), stdin, timeout)
        got.host = h
        return got

    with ThreadPoolExecutor(max_workers=max(1, min(parallel, len(hosts)))) as pool:
        return dict(zip(hosts, pool.map(one, hosts)))


def run_pdsh(hosts: Sequence[str], command: str, timeout: float, connect_timeout: int = 10,
             env: Optional[Mapping[str, str]] = None) -> Dict[str, HostOutput]:
    """``pdsh -R ssh -w h1,h2 -u T command``; output lines are ``host: text``. pdsh does not forward stdin,
    so the command carries the script itself."""
    for h in hosts:
        check_host(h)
    e = dict(os.environ if env is None else env)
    e["PDSH_RCMD_TYPE"] = "ssh"
    e["PDSH_SSH_ARGS_APPEND"] = f"-o BatchMode=yes -o ConnectTimeout={connect_timeout} -o LogLevel=ERROR"
    argv = ["pdsh", "-S", "-R", "ssh", "-f", "1024", "-t", str(connect_timeout), "-u", str(int(timeout)),
            "-w", ",".join(hosts), command]
    got = _communicate(argv, None, timeout + connect_timeout + 10, e)
    return split_prefixed(hosts, got)


def split_prefixed(hosts: Sequence[str], got: HostOutput) -> Dict[str, HostOutput]:
    """Split ``host: line`` output (pdsh, srun --label style) per host; pdsh's own messages go to stderr
    as ``pdsh@me: host: ...``."""
    outs: Dict[str, List[str]] = {h: [] for h in hosts}
    errs: Dict[str, List[str]] = {h: [] for h in hosts}
    for stream, sink in ((got.stdout, outs), (got.stderr, errs)):
        for line in stream.splitlines():
            if line.startswith("pdsh@"):
                line = line.split(": ", 1)[1] if ": " in line else line
            host, sep, rest = line.partition(": ")
            if sep and host in sink:
                sink[host].append(rest)
            elif line.strip():  # pdsh's "sending SIGTERM to ssh node6": to the hosts it names, else to all
                words = set(re.split(r"[\s\[\]:,]+", line))
                for h in [h for h in hosts if h in words] or hosts:
                    errs[h].append(line)
    res = {}
    for h in hosts:
        err = "\n".join(errs[h])
        rc: Optional[int] = 0 if outs[h] and not err else (None if got.returncode is None else 1)
        res[h] = HostOutput(h, rc, "\n".join(outs[h]), err, got.seconds)
    return res


def run_srun(hosts: Sequence[str], command: str, timeout: float) -> Dict[str, HostOutput]:
    """One task per node of the current allocation: ``srun --nodelist ... --label sh -c command``."""
    for h in hosts:
        check_host(h)
    argv = ["srun", f"--nodelist={','.join(hosts)}", f"--nodes={len(hosts)}", "--ntasks-per-node=1",
            f"--ntasks={len(hosts)}", "--label", "--kill-on-bad-exit=0", "sh", "-c", command]
    got = _communicate(argv, None, timeout + 30)
    # --label prefixes task ids ("0: "), in nodelist order
    relabel = "\n".join(_relabel(got.stdout, hosts))
    return split_prefixed(hosts, HostOutput("", got.returncode, relabel, "\n".join(_relabel(got.stderr, hosts)),
                                            got.seconds))


def _relabel(text: str, hosts: Sequence[str]) -> List[str]:
    out = []
    for line in text.splitlines():
        tid, sep, rest = line.partition(": ")
        if sep and tid.strip().isdigit() and int(tid) < len(hosts):
            out.append(f"{hosts[int(tid)]}: {rest}")
        else:
            out.append(line)
    return out
