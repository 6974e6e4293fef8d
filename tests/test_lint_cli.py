"""``dsdoctor lint`` command-line behaviour: the versions of the ``--python`` environment, one exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CFG = '{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 15099494.4}}\n'


def dsdoctor(cwd: Path, *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "dsdoctor", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def _env_with_deepspeed(tmp_path: Path, version: str) -> Path:
    """An interpreter whose sys.path holds DeepSpeed ``version`` (its package metadata only)."""
    site = tmp_path / "site"
    dist = site / f"deepspeed-{version}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: deepspeed\nVersion: {version}\n\n")
    py = tmp_path / "python"
    py.write_text(f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n')
    py.chmod(0o755)
    return py


def test_python_env_deepspeed_version(tmp_path: Path) -> None:
    """--python ENV judges with ENV's DeepSpeed (0.14.0: no pydantic-v2 integer check), not dsdoctor's own."""
    (tmp_path / "ds.json").write_text(CFG)
    py = _env_with_deepspeed(tmp_path, "0.14.0")
    p = dsdoctor(tmp_path, "lint", "ds.json", "--python", str(py), "--format", "json")
    out = json.loads(p.stdout)
    assert out["facts"]["deepspeed"] == "0.14.0" and str(py) in out["facts"]["deepspeed_source"], out["facts"]
    assert "bucket-size-float" not in {f["name"] for f in out["findings"]}
    newer = json.loads(dsdoctor(tmp_path, "lint", "ds.json", "--python", str(_env_with_deepspeed(tmp_path / "b", "0.19.8")),
                                "--format", "json").stdout)
    assert "bucket-size-float" in {f["name"] for f in newer["findings"]}


def test_diff_exit_codes(tmp_path: Path) -> None:
    """--diff prints the diff and exits with the shared exit code: 1 for an error, 0 with --exit-zero or when
    --fail-on never."""
    (tmp_path / "ds.json").write_text(CFG)
    p = dsdoctor(tmp_path, "lint", "ds.json", "--diff", "--ds-version", "0.19.8")
    assert p.returncode == 1 and "+" in p.stdout and "15099494" in p.stdout, p.stdout + p.stderr
    assert dsdoctor(tmp_path, "lint", "ds.json", "--diff", "--ds-version", "0.19.8", "--exit-zero").returncode == 0
    assert dsdoctor(tmp_path, "lint", "ds.json", "--diff", "--ds-version", "0.19.8", "--fail-on", "never").returncode == 0
    assert os.path.exists(tmp_path / "ds.json") and (tmp_path / "ds.json").read_text() == CFG  # nothing changed
