"""CLI contract: exit codes, JSON-only stdout, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def dsdoctor(*args: str, **kw: object) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sys.executable, "-m", "dsdoctor", *args], capture_output=True, text=True, timeout=60, **kw)  # type: ignore[call-overload]


@pytest.mark.parametrize("args, lines", [
    (("rules",), 1),  # more than the (shrunk) pipe holds: the write after the reader left fails
    (("rules", "--format", "json"), 1),
    (("rule", "cuda-version-mismatch"), 1),
    (("rule", "cuda-version-mismatch"), 0),  # the reader gone before the first write
    (("--version",), 0),  # answered by dsdoctor.entry, without the CLI layer
])
def test_a_closed_stdout_is_a_normal_end(args: "tuple[str, ...]", lines: int) -> None:
    """`dsdoctor rules | head -1`: the reader closes the pipe early; dsdoctor exits 0, silently."""
    import fcntl

    r, w = os.pipe()
    fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    proc = subprocess.Popen([sys.executable, "-m", "dsdoctor", *args], stdout=w, stderr=subprocess.PIPE,
                            env=dict(os.environ, COLUMNS="80"))
    os.close(w)
    with os.fdopen(r, "rb") as reader:
        for _ in range(lines):
            assert reader.readline()
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode()) == (0, "")


def test_usage_error_exits_2() -> None:
    p = dsdoctor("no-such-command")
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_unusable_python_exits_2(tmp_path: Path) -> None:
    p = dsdoctor("check", "--python", str(tmp_path / "nope"))
    assert p.returncode == 2 and "cannot use --python" in p.stderr and "Traceback" not in p.stderr
    garbage = tmp_path / "py"
    garbage.write_text("#!/bin/sh\necho not json\n")
    garbage.chmod(0o755)
    p = dsdoctor("check", "--python", str(garbage))
    assert p.returncode == 2 and "unexpected output" in p.stderr


def test_json_is_the_only_stdout(bare_python: str) -> None:
    p = dsdoctor("check", "--python", bare_python, "--format", "json")
    data = json.loads(p.stdout)
    assert p.returncode == 1  # a bare venv has neither torch nor deepspeed
    assert {f["name"] for f in data["findings"]} >= {"package-missing"}
    assert data["predictions"]["cpu_adam"]["loads"] is False
    for f in data["findings"]:
        assert set(f) >= {"name", "code", "severity", "title", "evidence", "fixes"}
        for fx in f["fixes"]:
            assert fx["applicability"] in ("safe", "unsafe") and isinstance(fx["commands"], list)


def test_text_output_is_plain_when_not_a_tty(bare_python: str) -> None:
    p = dsdoctor("check", "--python", bare_python)
    assert "\x1b[" not in p.stdout and "[✗] Packages" in p.stdout


def test_every_command_has_help_without_typer() -> None:
    from dsdoctor.cli import commands, main

    assert {"check", "lint", "fix", "explain", "verify", "estimate", "smoke", "launch", "rules", "rule", "report"} <= set(commands())
    for c in commands():
        assert main([c, "--help"]) == 0
    assert main([]) == 2  # no command: the help, as a usage error
    assert "typer" not in sys.modules and "click" not in sys.modules


def test_usage_errors_are_one_clear_message() -> None:
    p = dsdoctor("check", "--format", "xml")
    assert p.returncode == 2 and "invalid choice: 'xml' (choose from text, json, sarif, github)" in p.stderr
    assert "Traceback" not in p.stderr
    p = dsdoctor("lint", "--no-such-flag")
    assert p.returncode == 2 and "unrecognized arguments: --no-such-flag" in p.stderr


def test_smoke_config_points_to_ds_config() -> None:
    """`--config` is dsdoctor's settings file everywhere else: smoke's old `--config` (a ds_config) is refused
    with a pointer to --ds-config rather than silently meaning something else."""
    p = dsdoctor("smoke", "--config", "ds.json")
    assert p.returncode == 2 and "use --ds-config ds.json" in p.stderr and "Traceback" not in p.stderr
    assert "--ds-config" in dsdoctor("smoke", "--help").stdout


def test_launch_needs_a_command() -> None:
    p = dsdoctor("launch", "--no-preflight")
    assert p.returncode == 2 and "dsdoctor launch [options] -- deepspeed" in p.stderr


def test_verify_removes_its_empty_build_dir(tmp_path: Path) -> None:
    """A failed build that wrote nothing leaves no empty ``dsdoctor-ext-*`` directory behind (a stub interpreter that
    exits at once: fault injection, no DeepSpeed)."""
    stub = tmp_path / "python"
    stub.write_text("#!/bin/sh\necho 'no torch here' >&2\nexit 1\n")
    stub.chmod(0o755)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "verify", "--python", str(stub), "--format", "json",
                        "--timeout", "30"], capture_output=True, text=True, env=dict(os.environ, TMPDIR=str(tmp)),
                       timeout=120)
    assert p.returncode == 1, p.stderr
    assert json.loads(p.stdout)["findings"], p.stdout
    assert not list(tmp.glob("dsdoctor-ext-*"))



def test_the_process_command_line_collects_cycles_less_often(tmp_path: Path) -> None:
    """entry.main with the process's own command line raises the collector's thresholds (fewer full passes over
    what a lint keeps alive); called with arguments (tests, the library) it leaves them as they are."""
    code = ("import gc, sys\nfrom dsdoctor import entry\nbefore = gc.get_threshold()\n"
            "entry.main(['rules'])\nmine = gc.get_threshold()\n"
            "sys.argv = ['dsdoctor', 'rules']\nentry.main()\nprint(before == mine, gc.get_threshold())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert out.stdout.strip().splitlines()[-1] == "True (20000, 20, 20)"
