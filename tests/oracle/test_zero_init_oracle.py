"""Oracle for ``zero-init-below-stage3``: a model built under ``deepspeed.zero.Init`` (enabled) trains with ZeRO
stage 3 and fails at its first forward with stage 2 (the partitions are never gathered). The same ``train.py``
runs with the provisioned DeepSpeed 0.19.8 (one rank, CPU accelerator, gloo) for both stages in one process, and
``dsdoctor lint`` of the two projects (a launch of it with a stage-2 / stage-3 config) must predict exactly that.

The shm comm op's JIT build can hang on a loaded machine: the runner replaces ``build_shm_op`` (a speed-up only)
before ``init_distributed``, and points TORCH_EXTENSIONS_DIR at the provisioned ops."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from envfixture import one_rank_env

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
RULE = "zero-init-below-stage3"

TRAIN = '''import json, sys
import deepspeed, torch


def run(cfg_path, linear=True):
    cfg = json.load(open(cfg_path))
    with deepspeed.zero.Init(config_dict_or_path=cfg, enabled=True, mem_efficient_linear=linear):
        model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    engine, *_ = deepspeed.initialize(model=model, config=cfg, model_parameters=model.parameters())
    x, y = torch.randn(2, 8), torch.randn(2, 1)
    for _ in range(2):
        loss = torch.nn.functional.mse_loss(engine(x).float(), y)
        engine.backward(loss)
        engine.step()
    return float(loss)


if __name__ == "__main__":
    deepspeed.init_distributed(dist_backend="gloo")
    run(sys.argv[1])
'''
# both projects' train.py in one process: one DeepSpeed import, one process group
DRIVER = '''import sys
import deepspeed.comm.torch as ct
ct.build_shm_op = lambda: None  # a speed-up only; its JIT build can hang on a loaded machine
import deepspeed
deepspeed.init_distributed(dist_backend="gloo")
sys.path.insert(0, sys.argv[1])
import train
for stage, linear in ((2, True), (2, False), (3, True)):
    try:
        print("STAGE", stage, linear, "TRAINED", train.run(f"{sys.argv[1]}/ds_z{stage}.json", linear), flush=True)
    except Exception as e:
        print("STAGE", stage, linear, "FAILED", type(e).__name__, str(e)[:200], flush=True)
import os
os._exit(0)  # skip C++ static destructors: a process-group thread can abort the teardown, no part of the prediction
'''


def _config(stage: int) -> str:
    return json.dumps({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
                       "optimizer": {"type": "Adam", "params": {"lr": 1e-2, "torch_adam": True}},
                       "zero_optimization": {"stage": stage}}, indent=2)



def _predicted(root: Path, stage: int) -> bool:
    """Does ``dsdoctor lint`` of a project launching train.py with the stage-``stage`` config report the rule?"""
    proj = root / f"z{stage}"
    proj.mkdir()
    (proj / "train.py").write_text(TRAIN)
    (proj / "ds.json").write_text(_config(stage))
    (proj / "run.sh").write_text("#!/bin/bash\ndeepspeed --num_gpus 1 train.py --deepspeed_config ds.json\n")
    found = [f for f in lint([str(proj)], ds_version="0.19.8").report.findings if f.name == RULE]
    assert all(f.severity.value == "error" and f.line == 7 for f in found), found
    return bool(found)


def test_zero_init_fails_below_stage3_as_predicted(tmp_path: Path) -> None:
    assert _predicted(tmp_path, 2) and not _predicted(tmp_path, 3)

    run = tmp_path / "run"
    run.mkdir()
    (run / "train.py").write_text(TRAIN)
    for stage in (2, 3):
        (run / f"ds_z{stage}.json").write_text(_config(stage))
    (run / "driver.py").write_text(DRIVER)
    env = one_rank_env(str(ORACLE / "ds" / "0.19.8"))
    p = subprocess.run([str(VPY), "driver.py", str(run)], cwd=run, capture_output=True, text=True, env=env, timeout=300)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-3000:]
    for linear in (True, False):  # mem_efficient_linear=False (Baichuan-7B's train.py) fails the same way
        assert f"STAGE 2 {linear} FAILED RuntimeError mat2 must be a matrix, got 1-D tensor" in out, out[-3000:]
    assert "STAGE 3 True TRAINED" in out, out[-3000:]
