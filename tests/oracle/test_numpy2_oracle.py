"""Oracle for numpy 2.0's removed names (knowledge/numpy.py, data/numpy2.json.gz): numpy 2.0.0 installed for real
(``pip install --no-deps --target .cache/oracle/numpy-2.0.0 numpy==2.0.0``; derive_numpy.py keeps the wheel under
.cache/upstream/numpy/2.0.0/) raises the real errors, and ``dsdoctor explain`` on that output names numpy 2.0.0 and
pins numpy<2.0.0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
NUMPY2 = ORACLE / "numpy-2.0.0"


@pytest.mark.parametrize("code, removed", [("from numpy import BUFSIZE", "BUFSIZE"), ("import numpy as np; np.NaN", "NaN")])
def test_numpy_2_removed_name(code: str, removed: str, tmp_path: Path) -> None:
    if not (NUMPY2 / "numpy" / "__init__.py").is_file():
        pytest.skip("numpy 2.0.0 not provisioned: pip install --no-deps --target .cache/oracle/numpy-2.0.0 numpy==2.0.0")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env=dict(env, PYTHONPATH=str(NUMPY2)))
    assert r.returncode != 0 and removed in r.stderr, r.stderr[-1000:]
    log = tmp_path / "np.log"
    log.write_text(r.stderr)
    out = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", str(log), "--format", "json"],
                         capture_output=True, text=True, timeout=120, env=env)
    first = json.loads(out.stdout)["diagnoses"][0]
    assert first["name"] == "package-versions-incompatible", first
    assert f"numpy 2.0.0 removed `numpy.{removed}`" in first["summary"]
    assert any("numpy<2.0.0" in c for fx in first["fixes"] for c in fx["commands"])
