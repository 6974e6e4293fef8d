"""A directory of ds_configs named on the command line (``dsdoctor lint deepspeed/``) lints the configs in it,
though nothing there names them; a project's own walk (``dsdoctor lint .``) still lints only the configs its
launches and scripts name (lint/named_configs.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

STAGE2_OFFLOAD_PARAM = json.dumps({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {
    "stage": 2, "offload_param": {"device": "cpu"}}}, indent=2)


def _lint(root: Path, *args: str) -> Dict[str, Any]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", *args, "--format", "json", "--exit-zero"], cwd=root,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def test_named_directory_lints_its_configs(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a project root
    cfgs = tmp_path / "deepspeed"
    (cfgs / "large").mkdir(parents=True)
    (cfgs / "zero2_offload.json").write_text(STAGE2_OFFLOAD_PARAM)
    (cfgs / "large" / "zero2_70b.json").write_text(STAGE2_OFFLOAD_PARAM)
    (cfgs / "labels.json").write_text('{"0": "negative", "1": "positive"}\n')  # JSON, not a DeepSpeed config
    (tmp_path / "train.py").write_text("print('train')\n")
    report = _lint(tmp_path, "deepspeed")
    assert sorted(report["facts"]["files"]) == ["deepspeed/large/zero2_70b.json", "deepspeed/zero2_offload.json"]
    assert {(f["path"], f["name"]) for f in report["findings"] if f["severity"] == "warning"} == {
        ("deepspeed/zero2_offload.json", "offload-param-ignored-below-stage3"),
        ("deepspeed/large/zero2_70b.json", "offload-param-ignored-below-stage3")}
    # the project's walk: no launch or script names them, so they are not linted there
    assert not any(f.endswith(".json") for f in _lint(tmp_path, ".")["facts"]["files"])
