"""ds-config-auto-without-trainer and a client optimizer / lr_scheduler, against the real DeepSpeed 0.19.8
(engine._configure_optimizer / _configure_lr_scheduler): given both, deepspeed.initialize never reads the config's
optimizer and scheduler blocks, so their "auto" values pass (the rule: info); given only an optimizer, the scheduler
block is built and its "auto" stops initialize (the rule: an error on those keys)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from envfixture import EXT_0198, ORACLE_DIR, need_oracle
from packaging.version import Version

from dsdoctor.lint import lint_target, make_target
from dsdoctor.lint.target import Usage

pytestmark = pytest.mark.oracle

HERE = Path(__file__).parent
NAME = "ds-config-auto-without-trainer"
CONFIG: Dict[str, Any] = {
    "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1,
    "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}},
    "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": "auto", "warmup_max_lr": "auto",
                                                 "warmup_num_steps": "auto"}},
}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _real(tmp: Path, mode: str) -> Dict[str, Any]:
    vpy = need_oracle(ORACLE_DIR / "venv" / "bin" / "python")
    cfg = tmp / "ds.json"
    cfg.write_text(json.dumps(CONFIG))
    env = dict(os.environ, PYTHONPATH=str(ORACLE_DIR / "ds" / "0.19.8"), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(_port()), RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", OMP_NUM_THREADS="1",
               TORCH_EXTENSIONS_DIR=str(EXT_0198), DS_ACCELERATOR="cpu")
    p = subprocess.run([str(vpy), str(HERE / "client_blocks.py"), str(cfg), mode], capture_output=True, text=True,
                       env=env, timeout=600, cwd=tmp)
    lines = [x for x in p.stdout.splitlines() if x.startswith("{")]
    assert lines, (p.stdout + p.stderr)[-4000:]
    return dict(json.loads(lines[-1]))


def _predicted(tmp: Path, optimizer: bool, scheduler: bool) -> List[Tuple[str, str]]:
    path = tmp / f"p-{optimizer}-{scheduler}.json"
    path.write_text(json.dumps(CONFIG, indent=1))
    usage = Usage(memlock=None, loaded_by="deepspeed", ds=Version("0.19.8"), ds_source="--ds-version",
                  client_optimizer=optimizer, client_scheduler=scheduler)
    return [(key, h.finding.severity.value)  # one finding per way the values are lost: each names its keys
            for h in lint_target(make_target(str(path), "ds_config", usage)) if h.finding.name == NAME
            for key in h.finding.explanation.split('The "auto" values: ', 1)[1].split(". ", 1)[0].split(", ")]


def test_client_optimizer_and_scheduler_make_the_blocks_unread(tmp_path: Path) -> None:
    assert _real(tmp_path, "both")["ok"] is True
    got = _predicted(tmp_path, True, True)
    assert got and all(sev == "info" for _, sev in got), got


def test_client_optimizer_alone_leaves_the_scheduler_block_read(tmp_path: Path) -> None:
    real = _real(tmp_path, "optimizer")
    assert real["ok"] is False and "warmup_num_steps" in real["error"], real
    got = dict(_predicted(tmp_path, True, False))
    assert got["scheduler.params.warmup_num_steps"] == "error", got
    assert got["optimizer.params.lr"] == "info", got
