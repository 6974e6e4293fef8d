"""A project holding a FIFO, a socket or a link to nothing (dsdoctor/regular_file.py, lint/listing.py): reading a FIFO
waits for a writer forever, so ``dsdoctor lint .`` hung on one. The walk lists regular files only; a path a launch or
the user names that is no regular file is a finding saying what it is, never a wait."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from dsdoctor.regular_file import read_bytes

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def _lint(cwd: Path, *paths: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "dsdoctor", "lint", *paths, "--format", "json"], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def _project(tmp_path: Path) -> Path:
    (tmp_path / "ds_config.json").write_text('{"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 3}}')
    (tmp_path / "train.py").write_text("import deepspeed\n")
    (tmp_path / "run.sh").write_text("deepspeed train.py --deepspeed ds_zero3.json\n")
    os.mkfifo(tmp_path / "ds_zero3.json")  # the config the launch names
    os.mkfifo(tmp_path / "eval.py")  # a file the walk meets
    os.mkfifo(tmp_path / "requirements.txt")
    (tmp_path / "broken.py").symlink_to(tmp_path / "nowhere.py")
    return tmp_path


def test_lint_dot_never_waits_on_a_fifo(tmp_path: Path) -> None:
    p = _lint(_project(tmp_path), ".")
    assert p.returncode == 1, p.stderr
    found = {(f["name"], f["path"]): f["title"] for f in json.loads(p.stdout)["findings"]}
    assert "a FIFO (named pipe), not a regular file" in found[("ds-config-invalid", "ds_zero3.json")]
    assert not any(path in ("eval.py", "broken.py", "requirements.txt") for _, path in found)  # not listed


def test_named_fifo_is_a_finding(tmp_path: Path) -> None:
    _project(tmp_path)
    p = _lint(tmp_path, "eval.py")
    (f,) = [f for f in json.loads(p.stdout)["findings"] if f["name"] == "script-unparseable"]
    assert "cannot read: a FIFO (named pipe), not a regular file" in f["title"] and f["severity"] == "warning", f
    assert [x["title"] for x in f["fixes"]] == ["make it a regular file the user running lint can read"]  # not syntax


def test_file_over_the_size_limit_is_info(tmp_path: Path) -> None:
    """lint's own limit (16 MiB of Python): the file is not linted, which says nothing against it."""
    (tmp_path / "big.py").write_text("import deepspeed\n" + "x = 1\n" * (3 * 2**20))
    p = _lint(tmp_path, "big.py")
    (f,) = [f for f in json.loads(p.stdout)["findings"] if f["name"] == "script-unparseable"]
    assert "larger than 16 MiB" in f["title"] and f["severity"] == "info" and not f["fixes"], f


def test_read_bytes_refuses_what_is_no_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OSError, match="FIFO"):
        read_bytes(str(tmp_path / "pipe"), 10)
    with pytest.raises(OSError, match="directory"):
        read_bytes(str(tmp_path), 10)
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s"))
        with pytest.raises(OSError, match="socket"):
            read_bytes(str(tmp_path / "s"), 10)
    finally:
        sock.close()
    (tmp_path / "f").write_bytes(b"x" * 3000000)
    assert len(read_bytes(str(tmp_path / "f"), 2500000)) == 2500000  # more than one read of 1 MiB
    (tmp_path / "link").symlink_to(tmp_path / "f")
    assert read_bytes(str(tmp_path / "link"), 4) == b"xxxx"
