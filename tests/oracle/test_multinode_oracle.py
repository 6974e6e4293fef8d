"""Oracle tests for multi-node and launch: --include/--exclude selection equals the real DeepSpeed 0.19.8
runner's, and ``dsdoctor launch`` runs the real ``deepspeed`` launcher (2 CPU ranks, ZeRO-3 offload) end to
end, passing its exit code and explaining a failing run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Dict

from envfixture import EXT_0198, ext_0198_path

from dsdoctor.multinode.hosts import HostfileError, select

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
EXT = EXT_0198  # built by provisioning, once
TRAIN = REPO / "src" / "dsdoctor" / "smoke" / "train.py"
ZERO3 = {"optimizer": {"type": "AdamW", "params": {"lr": 0.01}},
         "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}}}



POOL = OrderedDict([("w0", 4), ("w1", 2), ("w2", 8)])
CASES = ["", "w1", "w0:1,3@w2", "w2@w0", "w1:0@w1:1", "w3", "w1:5", "w0:x"]


def test_include_exclude_match_the_real_runner() -> None:
    code = ("import json,sys,collections; from deepspeed.launcher.runner import parse_inclusion_exclusion as p\n"
            "pool=collections.OrderedDict(json.loads(sys.argv[1])); out={}\n"
            "for inc in json.loads(sys.argv[2]):\n"
            "  for mode in ('i','e'):\n"
            "    try: r=p(pool, inc if mode=='i' else '', inc if mode=='e' else ''); out[mode+inc]=list(r.items())\n"
            "    except Exception as e: out[mode+inc]='error'\n"
            "print(json.dumps(out))")
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / "0.19.8"))
    r = subprocess.run([str(VPY), "-c", code, json.dumps(list(POOL.items())), json.dumps(CASES)],
                       capture_output=True, text=True, env=env, timeout=300)
    real = json.loads(r.stdout.strip().splitlines()[-1])
    for inc in CASES:
        for mode in ("i", "e"):
            try:
                mine = [[h, s] for h, s in select(POOL, inc if mode == "i" else "", inc if mode == "e" else "").items()]
            except HostfileError:
                mine = "error"  # type: ignore[assignment]
            assert mine == real[mode + inc], (mode, inc)


def _env(tmp: Path) -> Dict[str, str]:
    (tmp / "t").mkdir(exist_ok=True)
    return dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / 'tf5.24.0'}:{ORACLE / 'ds' / '0.19.8'}",
                TORCH_EXTENSIONS_DIR=str(EXT), PATH=ext_0198_path(), TMPDIR=str(tmp / "t"), HF_HUB_OFFLINE="1",
                OMP_NUM_THREADS="1")


def _launch(tmp: Path, cfg: Dict[str, object]) -> "subprocess.CompletedProcess[str]":
    (tmp / "ds.json").write_text(json.dumps(cfg))
    return subprocess.run([sys.executable, "-m", "dsdoctor", "launch", "--", str(VPY), "-u", "-m",
                           "deepspeed.launcher.runner", "--num_gpus", "2", str(TRAIN), "--ds-config",
                           str(tmp / "ds.json"), "--out", str(tmp / "out")],
                          capture_output=True, text=True, env=_env(tmp), cwd=tmp, timeout=900)


def test_launch_runs_the_real_deepspeed_launcher(tmp_path: Path) -> None:
    p = _launch(tmp_path, dict(ZERO3, train_micro_batch_size_per_gpu=1, gradient_accumulation_steps=1))
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    done = [json.loads(line.split(" ", 1)[1]) for line in p.stdout.splitlines()
            if line.startswith("DSDOCTOR-SMOKE ") and '"done"' in line]
    assert sorted(d["rank"] for d in done) == [0, 1]
    assert "preflight" in p.stderr and "Traceback" not in p.stderr


def test_failing_launch_exit_code_and_root_cause(tmp_path: Path) -> None:
    p = _launch(tmp_path, dict(ZERO3, train_batch_size=3, train_micro_batch_size_per_gpu=2,
                               gradient_accumulation_steps=1))
    assert p.returncode == 1  # the launcher's own exit code
    assert "launch-failed" in p.stdout and "batch-size-mismatch" in p.stdout
    assert "3 != 2 * 1 * 2" in p.stdout
