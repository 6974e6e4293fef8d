"""dsdoctor's one file writer: all or nothing, permissions kept, no temporary file left behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dsdoctor.atomic import write_text


def test_new_file_and_replace_keep_mode(tmp_path: Path) -> None:
    p = tmp_path / "run.sh"
    write_text(str(p), "echo 1\n")
    assert p.read_text() == "echo 1\n" and stat.S_IMODE(p.stat().st_mode) == 0o644 & ~_umask()
    p.chmod(0o750)
    write_text(str(p), "echo 2\r\n")
    assert p.read_bytes() == b"echo 2\r\n" and stat.S_IMODE(p.stat().st_mode) == 0o750  # newlines as given


def test_failed_write_leaves_the_original_and_no_temp(tmp_path: Path) -> None:
    p = tmp_path / "ds_config.json"
    p.write_text('{"train_batch_size": 8}\n')
    with pytest.raises(UnicodeEncodeError):
        write_text(str(p), '{"x": "\udcff"}')  # fails half-way through the encoding
    assert p.read_text() == '{"train_batch_size": 8}\n'
    assert sorted(os.listdir(tmp_path)) == ["ds_config.json"]
    write_text(str(p), "\udcff\n", errors="surrogateescape")  # raw bytes read that way round-trip
    assert p.read_bytes() == b"\xff\n"


def test_private_mode_for_new_files(tmp_path: Path) -> None:
    p = tmp_path / "cache.json"
    write_text(str(p), "{}", mode=0o600)
    assert stat.S_IMODE(p.stat().st_mode) == 0o600


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m
