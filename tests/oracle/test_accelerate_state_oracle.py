"""Oracle for the regression row ``deepspeed-partial-state-first`` (``knowledge/regressions.py``): the real
Accelerate releases already provisioned for the other oracles (``hf/tf4.46.3`` carries Accelerate 1.1.1, inside the
row's 1.0.0-1.8.1; ``hf/tf5.24.0`` carries 1.15.0, after the 1.9.0 fix), with the provisioned DeepSpeed 0.19.8 on the
shared ``venv``'s CPU torch, run a one-rank DeepSpeed launch's environment where a PartialState exists before the
script's Accelerator (what TrainingArguments does). The affected release raises the ValueError from
``Accelerator.__init__``; the fixed one builds the Accelerator; ``dsdoctor explain`` on the real output names the
row. Nothing is downloaded here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from envfixture import need_oracle

from dsdoctor.knowledge import regressions as R
from dsdoctor.knowledge.versions import parse

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
ROW = R.ACC_STATE_BEFORE_ACCELERATOR
_SCRIPT = ("from accelerate.state import PartialState\nPartialState()   # as TrainingArguments does\n"
           "from accelerate import Accelerator\naccelerator = Accelerator()\nprint('accelerator made')\n")




def _run(hf: str, port: int, tmp: Path) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    py = need_oracle(ORACLE / "venv" / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=f"{need_oracle(ORACLE / 'hf' / hf)}{os.pathsep}{need_oracle(ORACLE / 'ds' / '0.19.8')}",
               ACCELERATE_USE_DEEPSPEED="true", WORLD_SIZE="1", RANK="0", LOCAL_RANK="0", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(port), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1")
    (tmp / "train.py").write_text(_SCRIPT)
    return subprocess.run([str(py), "train.py"], cwd=tmp, env=env, capture_output=True, text=True, timeout=600)


def _accelerate(hf: str) -> str:
    dist = next(need_oracle(ORACLE / "hf" / hf).glob("accelerate-*.dist-info"))
    return dist.name[len("accelerate-"):-len(".dist-info")]


def test_an_affected_release_raises_from_accelerator_init_and_explain_names_the_row(tmp_path: Path) -> None:
    ver = _accelerate("tf4.46.3")
    assert ROW.affects(parse(ver)), ver
    p = _run("tf4.46.3", 29531, tmp_path)
    assert p.returncode != 0 and ROW.text in p.stderr and ROW.code in p.stderr, p.stderr[-2000:]
    log = tmp_path / "run.log"
    log.write_text(p.stdout + p.stderr)
    out = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", "-f", "json", str(log)], capture_output=True,
                         text=True, timeout=300)
    d = json.loads(out.stdout)["diagnoses"][0]
    assert d["name"] == "package-versions-incompatible" and ROW.key in d["summary"], d
    assert any(f"accelerate>={ROW.fixed}" in " ".join(f["commands"]) for f in d["fixes"]), d["fixes"]


def test_a_fixed_release_builds_the_accelerator(tmp_path: Path) -> None:
    ver = _accelerate("tf5.24.0")
    assert parse(ver) >= parse(ROW.fixed), ver  # type: ignore[operator]
    p = _run("tf5.24.0", 29532, tmp_path)
    assert p.returncode == 0 and "accelerator made" in p.stdout, p.stderr[-2000:]
