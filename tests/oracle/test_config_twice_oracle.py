"""ds-config-given-twice against the real DeepSpeed: the fixture project ``tests/cases/lint/project/
ds-config-given-twice`` is linted, then its two entry scripts run with the options their launches give
(``--deepspeed --deepspeed_config ...``) on the oracle's DeepSpeed 0.19.8 (one rank, CPU accelerator): the one lint
reports stops with the assertion lint quotes, the one that clears ``args.deepspeed_config`` starts."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from envfixture import one_rank_env

from dsdoctor.knowledge import deepspeed as K
from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
PROJECT = REPO / "tests" / "cases" / "lint" / "project" / "ds-config-given-twice"



def _run(cwd: Path, script: str, config: str) -> "subprocess.CompletedProcess[str]":
    env = one_rank_env(str(ORACLE / "ds" / "0.19.8"))
    return subprocess.run([str(VPY), script, "--deepspeed", "--deepspeed_config", config], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=600)


def test_the_config_given_twice_stops_deepspeed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "p"
    shutil.copytree(PROJECT, work)
    monkeypatch.chdir(work)
    found = [f for f in lint(["."], ds_version="0.19.8").report.findings if f.name == "ds-config-given-twice"]
    assert [(f.path, f.severity.value) for f in found] == [("scripts/run.sh", "error")], found

    p = _run(work, "train.py", "ds_old.json")
    out = p.stdout + p.stderr
    assert p.returncode != 0 and "AssertionError" in out and K.MSG_CONFIG_TWICE in out, out[-3000:]
    ok = _run(work, "train_ok.py", "ds.json")
    assert ok.returncode == 0 and "STARTED DeepSpeedEngine" in ok.stdout, (ok.stdout + ok.stderr)[-3000:]
