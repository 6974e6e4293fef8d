"""ds-scheduler-overrides-trainer against the real Trainer: under a ZeRO-3 config with a "scheduler" block, real
transformers 4.46.3 and 5.24.0 with DeepSpeed 0.19.8 train a tiny model (one CPU rank) with a --lr_scheduler_type;
the run's learning rates follow the Trainer's own schedule (the same run without the block) exactly where the rule
predicts no finding, and differ where it reports the type as ignored."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

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
# (DeepSpeed scheduler type, --lr_scheduler_type): each type with its own curve's name and with another
PAIRS: List[Tuple[str, str]] = [("WarmupLR", "constant_with_warmup"), ("WarmupLR", "cosine"),
                                ("WarmupDecayLR", "linear"), ("WarmupDecayLR", "cosine"),
                                ("WarmupCosineLR", "cosine"), ("WarmupCosineLR", "linear")]
KINDS = sorted({k for _, k in PAIRS})


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rates(tmp: Path, hf: str, cases: Sequence[Tuple[Optional[str], str]]) -> List[List[float]]:
    path = tmp / "cases.json"
    path.write_text(json.dumps(list(cases)))
    env = dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / hf}:{ORACLE / 'ds' / '0.19.8'}", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(_free_port()), RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", OMP_NUM_THREADS="1",
               TORCH_EXTENSIONS_DIR=str(EXT_0198), DS_ACCELERATOR="cpu")
    p = subprocess.run([str(VPY), str(HERE / "trainer_schedule.py"), str(path)], capture_output=True, text=True,
                       env=env, timeout=600, cwd=tmp)
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    assert lines, (p.stdout + p.stderr)[-4000:]
    return [list(r) for r in json.loads(lines[-1])]


def _follows(got: List[float], want: List[float]) -> bool:
    """Whether ``got`` follows ``want`` after the warm-up (DeepSpeed's warm-up is logarithmic and may end one step
    later than the Trainer's): equal within 2% of the peak, shifted by at most one step."""
    tol = 0.02 * max(want)
    return any(all(abs(a - b) <= tol for a, b in zip(got[3 + s:], want[3:len(got) - s])) for s in (0, 1))


def _flagged(tmp: Path, kind: str, lr_type: str) -> bool:
    path = tmp / f"{kind}-{lr_type}.json"
    path.write_text(json.dumps({"scheduler": {"type": kind, "params": {}}, "zero_optimization": {"stage": 3}}))
    usage = Usage(memlock=None, loaded_by="trainer", lr_scheduler_types=(lr_type,))
    hits = lint_target(make_target(str(path), "ds_config", usage))
    return any(h.finding.name == names.DS_SCHEDULER_OVERRIDES_TRAINER for h in hits)


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_block_replaces_the_trainers_schedule_where_predicted(tmp_path: Path, hf: str) -> None:
    cases: List[Tuple[Optional[str], str]] = [*((None, k) for k in KINDS), *PAIRS]
    got = _rates(tmp_path, hf, cases)
    own: Dict[str, List[float]] = dict(zip(KINDS, got[:len(KINDS)]))
    assert own["cosine"] != own["linear"], own  # the Trainer's own schedules differ: the comparison can tell
    for (kind, lr_type), rates in zip(PAIRS, got[len(KINDS):]):
        assert _follows(rates, own[lr_type]) is not _flagged(tmp_path, kind, lr_type), (hf, kind, lr_type, rates)
