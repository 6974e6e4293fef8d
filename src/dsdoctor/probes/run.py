"""Running external tools with a timeout. A tool that hangs, crashes or prints garbage becomes a
``ProbeFailure`` naming the probe; it never raises into dsdoctor."""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence

MAX_OUTPUT = 64 * 1024  # a probe's useful output is small; bound what we keep


@dataclass(frozen=True)
class ProbeFailure:
    """A probe could not produce its fact. ``probe`` names it (e.g. ``nvcc -V``)."""

    probe: str
    reason: str
    where: str = ""


@dataclass(frozen=True)
class ToolResult:
    argv: Sequence[str]
    returncode: Optional[int]
    stdout: str
    stderr: str
    error: Optional[str] = None  # "not found", "timed out after 5s", "permission denied", ...

    @property
    def ok(self) -> bool:
        return self.error is None and self.returncode == 0

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def describe_failure(self) -> str:
        if self.error:
            return self.error
        tail = self.output.strip().splitlines()[-1:] or [""]
        return f"exit status {self.returncode}: {tail[0][:200]}"


def _decode(data: Optional[bytes]) -> str:
    if not data:
        return ""
    return data[:MAX_OUTPUT].decode("utf-8", errors="replace")


def run_tool(
    argv: Sequence[str], timeout: float = 5.0, env: Optional[Mapping[str, str]] = None
) -> ToolResult:
    """Run ``argv`` without a shell, bounded by ``timeout`` seconds, never raising."""
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            start_new_session=True,  # so a hung tool and its children can be killed as a group
        )
    except FileNotFoundError:
        return ToolResult(argv, None, "", "", "not found")
    except PermissionError:
        return ToolResult(argv, None, "", "", "permission denied")
    except OSError as exc:
        return ToolResult(argv, None, "", "", f"could not run: {exc.strerror or exc}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=1.0)
        except subprocess.TimeoutExpired:  # a grandchild escaped the group and holds the pipes
            out, err = b"", b""
        return ToolResult(argv, None, _decode(out), _decode(err), f"timed out after {timeout:g}s")
    return ToolResult(argv, proc.returncode, _decode(out), _decode(err))


def _kill_group(proc: "subprocess.Popen[bytes]") -> None:
    kill_tree(proc.pid)
    proc.kill()


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, its process group and every descendant. Descendants are found through
    /proc because some tools (ninja) start their children in process groups of their own."""
    victims = [pid] + _descendants(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    for p in victims:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def _descendants(pid: int) -> List[int]:
    children: Dict[int, List[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for e in entries:
        if not e.isdigit():
            continue
        try:
            with open(f"/proc/{e}/stat", "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(e))
    out: List[int] = []
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out



def which(name: str, path: Optional[str]) -> Optional[str]:
    """``shutil.which`` over an explicit PATH string (no cwd lookup, links not resolved)."""
    if os.sep in name:
        return name if os.access(name, os.X_OK) and os.path.isfile(name) else None
    for d in (path or "").split(os.pathsep):
        if not d:
            continue
        cand = os.path.join(d, name)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None
