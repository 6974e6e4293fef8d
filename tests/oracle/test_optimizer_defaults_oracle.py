"""ds-optimizer-defaults-override-trainer against the real Trainer: real transformers 4.46.3 and 5.24.0 with
DeepSpeed 0.19.8 train a tiny model one step (one CPU rank) under configs whose AdamW block leaves out some of lr,
betas, eps and weight_decay (ZeRO-3, and ZeRO-2 with the optimizer offloaded to the CPU); the optimizer DeepSpeed
built keeps the launch's value of a parameter exactly where the rule does not name it, and has DeepSpeed's default
where it does."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from envfixture import EXT_0198

from dsdoctor import names
from dsdoctor.lint import lint_target, make_target
from dsdoctor.lint.target import Usage

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
HERE = Path(__file__).parent
# trainer_optimizer.py's TrainingArguments, as lint's launch values (every one passed on the command line)
ARGS = {"learning_rate": 1e-2, "adam_beta1": 0.8, "adam_beta2": 0.95, "adam_epsilon": 1e-6, "weight_decay": 0.1}
ASKED = {"lr": 1e-2, "betas": [0.8, 0.95], "eps": 1e-6, "weight_decay": 0.1}
Z3 = {"stage": 3}
OFFLOAD = {"stage": 2, "offload_optimizer": {"device": "cpu"}}
CASES: List[Tuple[Dict[str, Any], Dict[str, Any]]] = [
    ({"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}, Z3),
    ({"lr": "auto"}, Z3),
    ({"betas": "auto", "eps": "auto"}, Z3),
    ({}, OFFLOAD),
    ({"lr": "auto", "weight_decay": "auto"}, OFFLOAD),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _built(tmp: Path, hf: str) -> List[Dict[str, Any]]:
    path = tmp / "cases.json"
    path.write_text(json.dumps(CASES))
    env = dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / hf}:{ORACLE / 'ds' / '0.19.8'}", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(_free_port()), RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", OMP_NUM_THREADS="1",
               TORCH_EXTENSIONS_DIR=str(EXT_0198), DS_ACCELERATOR="cpu")
    p = subprocess.run([str(VPY), str(HERE / "trainer_optimizer.py"), str(path)], capture_output=True, text=True,
                       env=env, timeout=600, cwd=tmp)
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    assert lines, (p.stdout + p.stderr)[-4000:]
    return list(json.loads(lines[-1]))


def _named(tmp: Path, i: int, params: Dict[str, Any], zero: Dict[str, Any]) -> List[str]:
    """The keys the rule says the launch loses."""
    path = tmp / f"case{i}.json"
    path.write_text(json.dumps({"optimizer": {"type": "AdamW", "params": params}, "zero_optimization": zero}))
    usage = Usage(memlock=None, loaded_by="trainer", trainer_launches=(("run.sh:1", dict(ARGS), ()),))
    hits = [h for h in lint_target(make_target(str(path), "ds_config", usage))
            if h.finding.name == names.DS_OPTIMIZER_DEFAULTS_OVERRIDE_TRAINER]
    return [k for k in ASKED if hits and f" {k} (DeepSpeed's default" in " " + hits[0].finding.title.split("asks: ", 1)[-1]]


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_left_out_parameters_take_deepspeeds_defaults_where_predicted(tmp_path: Path, hf: str) -> None:
    got = _built(tmp_path, hf)
    assert {g["class"] for g in got} == {"FusedAdam", "DeepSpeedCPUAdam"}, got  # both classes the data reads
    lost_somewhere = set()
    for i, ((params, zero), real) in enumerate(zip(CASES, got)):
        named = _named(tmp_path, i, params, zero)
        for key, want in ASKED.items():
            kept = real[key] == pytest.approx(want)
            assert kept is (key not in named), (hf, params, zero, key, real, named)
            lost_somewhere |= set() if kept else {key}
    assert lost_somewhere == set(ASKED)  # every key is lost in some case: the comparison can tell
