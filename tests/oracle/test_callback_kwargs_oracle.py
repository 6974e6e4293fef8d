"""The keyword arguments the HF Trainer hands a TrainerCallback (``knowledge/callback_kwargs``, derived from the
released sources by ``scripts/upstream/derive_callback_kwargs.py``) against the real Trainer of transformers 4.46.3
and 5.24.0: a callback that records every ``on_*`` call's keywords, a two-step CPU run on a tiny GPT-2 built from a
config, an evaluate and a predict. What the real Trainer passes must be what the data says that release passes, and
never a ``trainer`` (what ``zero3-save-on-rank0-only`` relies on for ``kwargs.get("trainer")``)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Dict, List, Set

import pytest

from dsdoctor.knowledge import callback_kwargs as CB

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
RUNNER = Path(__file__).parent / "callback_kwargs_runner.py"


def _real(tmp: Path, hf: str) -> Dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "hf" / hf), OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="",
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    p = subprocess.run([str(VPY), str(RUNNER), str(tmp / "out")], capture_output=True, text=True, env=env,
                       timeout=600, cwd=tmp)
    assert p.returncode == 0, p.stderr[-3000:]
    got: Dict[str, object] = json.loads(p.stdout.strip().splitlines()[-1])
    return got


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_trainer_passes_what_the_data_says(tmp_path: Path, hf: str) -> None:
    got = _real(tmp_path, hf)
    version = str(got["version"])
    events = got["events"]
    assert isinstance(events, dict)
    assert {"on_train_begin", "on_log", "on_evaluate", "on_save", "on_predict"} <= set(events)
    passed: Set[str] = set()
    for keys in events.values():
        assert isinstance(keys, list)
        passed |= set(keys)
    assert version in CB.releases()
    derived = set()
    for key in passed | {"tokenizer", "processing_class", "trainer"}:
        span = CB.span(key)
        if span is not None and span.has(version):
            derived.add(key)
    assert passed == derived
    assert "trainer" not in passed and CB.never_passed("trainer") is not None
    none: List[str] = [k for k in passed if CB.never_passed(k) is not None]
    assert not none
