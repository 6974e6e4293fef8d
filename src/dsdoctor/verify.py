"""``dsdoctor verify``: really build and load an op with the installed DeepSpeed, in a subprocess with a
timeout and (by default) a fresh temporary TORCH_EXTENSIONS_DIR; on failure name the root cause."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional

from . import names as N
from .checks import run_check
from .explain import diagnose_log
from .explain.causes.generic import OP_BUILD_SYMPTOM as OP_BUILD_FAILED
from .explain.envmerge import NEUTRAL
from .model import Evidence, Finding, Passed, Report, Severity
from .probes import child
from .probes.run import kill_tree

CHILD = child.__file__
TAIL_LINES = 30


@dataclass
class VerifyResult:
    op: str
    ok: bool
    seconds: float
    returncode: Optional[int]
    timed_out: bool
    log: str
    extensions_dir: str


def build_op(
    op: str,
    python: str,
    timeout: float,
    extensions_dir: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
    tick: Optional[Callable[[float], None]] = None,
) -> VerifyResult:
    """Run DeepSpeed's own ``<Builder>().load()`` for ``op`` in ``python``; never raises on failure."""
    run_env: Dict[str, str] = dict(os.environ if env is None else env)
    tmp = None
    if extensions_dir is None:
        tmp = tempfile.mkdtemp(prefix="dsdoctor-ext-")
        extensions_dir = tmp
    run_env["TORCH_EXTENSIONS_DIR"] = extensions_dir
    run_env.setdefault("PYTHONUNBUFFERED", "1")
    t0 = time.monotonic()
    chunks: List[bytes] = []
    timed_out = False
    with tempfile.TemporaryFile() as logf:
        try:
            proc = subprocess.Popen([python, CHILD, "load", op], stdin=subprocess.DEVNULL, stdout=logf,
                                    stderr=subprocess.STDOUT, env=run_env, start_new_session=True)
        except OSError as exc:
            return VerifyResult(op, False, 0.0, None, False, f"could not start {python}: {exc}", extensions_dir)
        while proc.poll() is None:
            elapsed = time.monotonic() - t0
            if elapsed > timeout:
                timed_out = True
                kill_tree(proc.pid)  # ninja's compiler children live in process groups of their own
                proc.wait()
                break
            if tick:
                tick(elapsed)
            time.sleep(0.2)
        logf.seek(0)
        chunks.append(logf.read())
    log = b"".join(chunks).decode("utf-8", errors="replace")
    ok = proc.returncode == 0 and child.OK_MARK in log
    if tmp and ok:
        shutil.rmtree(tmp, ignore_errors=True)
    return VerifyResult(op, ok, time.monotonic() - t0, proc.returncode, timed_out, log, extensions_dir)


def diagnose(result: VerifyResult, python: Optional[str]) -> Report:
    """Turn a build result into findings: the root cause from the log, merged with ``check``."""
    report = Report()
    tail = "\n".join(result.log.strip().splitlines()[-TAIL_LINES:])
    report.facts = {"op": result.op, "seconds": round(result.seconds, 1), "returncode": result.returncode,
                    "timed_out": result.timed_out, "extensions_dir": result.extensions_dir}
    if result.ok:
        report.passed.append(Passed("verify", f"{result.op} built and loaded in {result.seconds:.1f}s"))
        return report
    # check sees the same build dir the child used (its lock files, its TORCH_EXTENSIONS_DIR)
    checked = run_check(python, env=dict(os.environ, TORCH_EXTENSIONS_DIR=result.extensions_dir))
    explained = diagnose_log(result.log, source=f"{result.op} build log")
    primary = explained.findings[0]
    if result.timed_out and primary.name in NEUTRAL:
        lock_findings = [f for f in checked.findings if f.name == N.TORCH_EXTENSIONS_LOCK_STALE]
        report.findings.extend(lock_findings)
        report.findings.append(Finding(
            OP_BUILD_FAILED, Severity.ERROR, f"{result.op} did not finish within the timeout",
            "A silent hang usually means a stale lock file in the build directory, or a very slow compile (raise --timeout).",
            (Evidence("no output for the rest of the run", "verify subprocess"),), (), "verify"))
        return report
    if primary.name not in NEUTRAL:
        # check's finding of the same cause has the environment-specific fixes (same builders as explain's)
        same = [f for f in checked.findings if f.name == primary.name]
        f0 = same[0] if same else primary
        report.findings.append(Finding(primary.name, Severity.ERROR, f"{result.op} failed: {f0.title}", f0.explanation,
                                       primary.evidence + (f0.evidence if same else ()), f0.fixes or primary.fixes, "verify"))
    else:
        predicted = checked.predictions.get("cpu_adam", {}).get("cause") if result.op == "cpu_adam" else None
        line = primary.evidence[0].what if primary.evidence and primary.name != N.NO_FAILURE else tail[-300:]
        report.findings.append(Finding(
            OP_BUILD_FAILED, Severity.ERROR, f"{result.op} failed to build/load; the cause is not in the log",
            f"`dsdoctor check` predicts: {predicted or 'no cause'}. Collect the full build log (below, and in "
            f"{result.extensions_dir}) and `dsdoctor check -v` output.",
            (Evidence(line, f"{result.op} build log"),), (), "verify"))
    report.facts["log_tail"] = tail
    return report


def default_python(python: Optional[str]) -> str:
    """``--python``, else the interpreter ``check`` would inspect (the training environment's)."""
    from .probes.interpreter import default_executable
    return python or default_executable()
