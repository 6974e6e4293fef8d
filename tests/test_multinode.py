"""Multi-node units: host names refused before anything runs (one hostfile per case), the EnvFacts wire
round trip, grouping, .deepspeed_env append, launch usage errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from dsdoctor.launcher import append_env_file, hostfile_of, needed_env_lines
from dsdoctor.model import Finding, Report, Severity
from dsdoctor.multinode.diff import drift_findings, group_findings
from dsdoctor.multinode.hosts import HostfileError, check_host, read_hostfile
from dsdoctor.multinode.transport import ssh_argv
from dsdoctor.probes.environment import EnvFacts, collect
from dsdoctor.probes.wire import decode, encode

CASES = sorted((Path(__file__).parent / "cases" / "multinode").glob("*.hostfile"))


def _stub_bin(tmp: Path) -> str:
    """ssh/pdsh/srun stubs that record any call: the refusal must come before a transport starts."""
    b = tmp / "bin"
    b.mkdir()
    for tool in ("ssh", "pdsh", "srun"):
        (b / tool).write_text(f"#!/bin/sh\necho called >> {tmp}/CALLED\n")
        (b / tool).chmod(0o755)
    return str(b)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
@pytest.mark.parametrize("transport", ["ssh", "pdsh", "srun"])
def test_metacharacters_refused_before_anything_runs(case: Path, transport: str, tmp_path: Path) -> None:
    env = dict(os.environ, PATH=_stub_bin(tmp_path) + os.pathsep + os.environ["PATH"])
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check", "--hostfile", str(case), "--transport",
                        transport], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert p.returncode == 2, p.stderr
    assert ("refusing host name" in p.stderr or "launcher refuses" in p.stderr) and "Traceback" not in p.stderr
    assert not (tmp_path / "CALLED").exists() and not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("name", ["a b", "a;b", "a|b", "$x", "a&", "-oX", "a\nb", "", "h:1", "u@h", "a'b", "a\"b"])
def test_check_host_refuses(name: str) -> None:
    with pytest.raises(HostfileError):
        check_host(name)


def test_ssh_argv_ends_options_before_the_host() -> None:
    argv = ssh_argv("node-1.example", "true", 5)
    assert argv[argv.index("--") + 1] == "node-1.example" and "BatchMode=yes" in argv


def test_read_hostfile_reports_the_launcher_error(tmp_path: Path) -> None:
    (tmp_path / "hf").write_text("w0 slots=2\nw0 slots=2\n")
    with pytest.raises(HostfileError, match="multiple entries for w0"):
        read_hostfile(str(tmp_path / "hf"))


def test_wire_round_trip_is_lossless() -> None:
    facts = collect()
    again = decode(EnvFacts, encode(facts))
    assert again == facts


def _rep(*names: str) -> Report:
    return Report(findings=[Finding(name=n, severity=Severity.ERROR, title=f"{n} title") for n in names])


def test_one_problem_on_7_of_8_nodes_is_one_line() -> None:
    per = {f"n{i}": _rep("ninja-missing") if i < 7 else _rep() for i in range(8)}
    got = group_findings(per)
    assert len(got) == 1 and got[0].title.startswith("[7 of 8 nodes (n0, n1, n2, n3, n4, n5, +1 more)]")


def test_drift_names_nodes_and_values() -> None:
    prints = {"a": {"torch": "2.4.0"}, "b": {"torch": "2.4.0"}, "c": {"torch": "2.5.1"}}
    got = drift_findings(prints)
    assert [f.name for f in got] == ["node-env-drift"]
    assert "2.4.0 on 2 of 3 nodes (a, b); 2.5.1 on 1 of 3 nodes (c)" in got[0].title


def test_env_file_append_keeps_user_lines(tmp_path: Path) -> None:
    p = tmp_path / ".deepspeed_env"
    p.write_text("MY_VAR=1\nNCCL_DEBUG=INFO")  # no final newline
    append_env_file(str(p), ["DS_SKIP_CUDA_CHECK=1"])
    assert p.read_text() == "MY_VAR=1\nNCCL_DEBUG=INFO\nDS_SKIP_CUDA_CHECK=1\n"


def test_needed_env_lines() -> None:
    env = {"DS_SKIP_CUDA_CHECK": "1", "PYTHONPATH": "/x", "NCCL_DEBUG": "INFO", "HOME": "/root",
           "CUDA_VISIBLE_DEVICES": "0", "CUDA_HOME": "/usr/local/cuda"}
    lines: List[str] = needed_env_lines(env, {"CUDA_HOME": "/usr/local/cuda"})
    assert lines == ["DS_SKIP_CUDA_CHECK=1"]


def test_hostfile_of_deepspeed_args() -> None:
    assert hostfile_of(["deepspeed", "-H", "hf", "train.py", "-H", "x"]) == "hf"
    assert hostfile_of(["deepspeed", "train.py", "--hostfile", "x"]) is None


def test_launch_without_command_is_a_usage_error() -> None:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "launch"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_launch_passes_the_exit_code(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "launch", "--no-preflight", "--", sys.executable, "-c",
                        "import sys; print('hello'); sys.exit(7)"], capture_output=True, text=True, timeout=120,
                       cwd=tmp_path)
    assert p.returncode == 7 and "hello" in p.stdout and "launch-failed" in p.stdout


def test_launch_forwards_sigterm_to_the_launcher(tmp_path: Path) -> None:
    child = ("import signal, sys, time\n"
             "signal.signal(signal.SIGTERM, lambda *a: (print('got TERM', flush=True), sys.exit(42)))\n"
             "print('ready', flush=True)\n"
             "time.sleep(60)\n")
    p = subprocess.Popen([sys.executable, "-m", "dsdoctor", "launch", "--no-preflight", "--", sys.executable, "-c",
                          child], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "ready"
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 42 and "got TERM" in out
