"""Oracle: `dsdoctor estimate`'s per-rank prediction for ZeRO-3 with offload_optimizer=cpu and
offload_param=cpu stays within ±20 % of the memory a real run adds (torch 2.14.1 + DeepSpeed 0.19.8 +
Transformers 5.24.0 on the CPU accelerator, one rank, the 58 M-parameter size of
bench/estimate_accuracy.py, whose predict/measure functions this reuses). A bound on a ratio of memory
(VmHWM minus the RSS before the model is built), not on time; ~20 s."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import pytest
from envfixture import EXT_0198, ext_0198_path, load_bench

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")



def _bench() -> ModuleType:
    return load_bench("estimate_accuracy")


def test_predicted_peak_within_20_percent_of_measured(tmp_path: Path) -> None:
    b = _bench()
    cfg = b.model_config("medium")
    predicted, parts, params = b.predict(cfg, 1)
    (tmp_path / "t").mkdir()
    env = dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / 'tf5.24.0'}:{ORACLE / 'ds' / '0.19.8'}",
               TORCH_EXTENSIONS_DIR=str(EXT_0198), PATH=ext_0198_path(), HF_HUB_OFFLINE="1",
               TMPDIR=str(tmp_path / "t"))
    m = b.measure(str(ORACLE / "venv" / "bin" / "python"), cfg, 1, env)
    assert m is not None, "the real run failed (its log tail is on stderr)"
    ratio = predicted / m["added"]
    assert 0.8 <= ratio <= 1.2, (params, predicted, m, parts)
