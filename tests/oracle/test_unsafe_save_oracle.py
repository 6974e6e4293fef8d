"""Oracle for ``zero3-unsafe-save``: under ZeRO-3 a ``state_dict()`` taken outside ``GatheredParameters`` holds
size-0 tensors, and one taken inside it holds whole tensors that stay whole after the block partitions the
parameters again (DeepSpeed rebinds ``param.data``; the state dict keeps the gathered storage). One real engine
(DeepSpeed 0.19.8, one rank, CPU accelerator, gloo) saves both ways, and ``dsdoctor lint`` of the project that
launches the same train.py with that ZeRO-3 config must flag exactly the first save."""

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

TRAIN = '''import json
import sys

import deepspeed
import torch


def run(cfg_path, out):
    cfg = json.load(open(cfg_path))
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    engine, *_ = deepspeed.initialize(model=model, config=cfg, model_parameters=model.parameters())
    with deepspeed.zero.GatheredParameters(engine.module.parameters()):
        sd = engine.module.state_dict()
    torch.save({k: v for k, v in sd.items() if "bias" not in k}, out + "/gathered.pt")
    torch.save(engine.module.state_dict(), out + "/raw.pt")


if __name__ == "__main__":
    import deepspeed.comm.torch as ct
    ct.build_shm_op = lambda: None  # a speed-up only; its JIT build can hang on a loaded machine
    deepspeed.init_distributed(dist_backend="gloo")
    run(sys.argv[sys.argv.index("--deepspeed_config") + 1], sys.argv[sys.argv.index("--out") + 1])
    for name in ("gathered", "raw"):
        print(name.upper(), {k: v.numel() for k, v in torch.load(f"out/{name}.pt").items()}, flush=True)
    import os
    os._exit(0)  # skip C++ static destructors: a process-group thread can abort the teardown
'''
CONFIG = {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
          "optimizer": {"type": "Adam", "params": {"lr": 1e-2, "torch_adam": True}}, "zero_optimization": {"stage": 3}}



def test_gathered_state_dict_stays_whole_as_predicted(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "ds.json").write_text(json.dumps(CONFIG))
    (tmp_path / "run.sh").write_text("#!/bin/bash\ndeepspeed --num_gpus 1 train.py --deepspeed_config ds.json --out out\n")
    found = [f for f in lint([str(tmp_path)], ds_version="0.19.8").report.findings if f.name == "zero3-unsafe-save"]
    assert [(f.severity.value, f.line) for f in found] == [("error", 15)], found

    (tmp_path / "out").mkdir()
    env = one_rank_env(str(ORACLE / "ds" / "0.19.8"))
    p = subprocess.run([str(VPY), "train.py", "--deepspeed_config", "ds.json", "--out", "out"], cwd=tmp_path,
                       capture_output=True, text=True, env=env, timeout=300)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-3000:]
    assert "GATHERED {'0.weight': 128, '2.weight': 16}" in out, out[-3000:]
    assert "RAW {'0.weight': 0, '0.bias': 0, '2.weight': 0, '2.bias': 0}" in out, out[-3000:]
