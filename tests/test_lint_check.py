"""`dsdoctor check` lints the project in the current directory (lint findings merged, with positions)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "zero3-offload"


def check(cwd: Path, *args: str) -> Dict[str, Any]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check", "--format", "json", *args], cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def test_example_project_is_linted(tmp_path: Path) -> None:
    proj = tmp_path / "zero3-offload"
    shutil.copytree(EXAMPLE, proj)
    out = check(proj)
    files = out["facts"]["lint"]["files"]
    assert {"ds_config_zero3.json", "launch.sh", "train.py"} <= set(files)
    assert out["facts"]["lint"]["world_size"] == 2  # deepspeed --num_gpus 2 in launch.sh
    for f in out["findings"]:
        if f.get("path"):
            assert f["path"] in files and f["line"] >= 1 and f["col"] >= 1


def test_findings_with_positions_and_no_lint(tmp_path: Path) -> None:
    (tmp_path / "ds.json").write_text('{\n  "fp16": {"enabled": true},\n  "bf16": {"enabled": true},\n'
                                      '  "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_sz": 1}\n}\n')
    (tmp_path / "run.sh").write_text("deepspeed --export DS_SKIP_CUDA_CHECK=1 train.py --deepspeed ds.json\n")
    out = check(tmp_path)
    got = {(f["name"], f["path"], f["line"]) for f in out["findings"] if f.get("path")}
    assert ("fp16-bf16-both-enabled", "ds.json", 3) in got or ("fp16-bf16-both-enabled", "ds.json", 2) in got
    assert ("ds-config-unknown-key", "ds.json", 4) in got
    assert ("deepspeed-export-flag", "run.sh", 1) in got
    off = check(tmp_path, "--no-lint")
    assert not [f for f in off["findings"] if f.get("path")] and "lint" not in off["facts"]


def test_nothing_to_lint(tmp_path: Path) -> None:
    out = check(tmp_path)
    assert out["facts"]["lint"] == {"files": []}
    assert not [f for f in out["findings"] if f.get("path")]


def test_text_output_shows_location(tmp_path: Path) -> None:
    (tmp_path / "ds.json").write_text('{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_sz": 1}}\n')
    (tmp_path / "loose.json").write_text('{"not": "a ds_config"}\n')  # referenced by nothing: not read
    (tmp_path / "run.sh").write_text("deepspeed train.py --deepspeed ds.json\n")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert "ds.json:1:" in p.stdout and "ds-config-unknown-key" in p.stdout and "loose.json" not in p.stdout
