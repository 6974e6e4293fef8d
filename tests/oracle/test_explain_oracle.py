"""Oracle for `dsdoctor explain`: make the real DeepSpeed / torch / Transformers fail here (the scenarios of
tests/cases/explain/produce.py) and check that explain names the cause from their live output, not the
symptom printed last. Also: --env merges the environment check (a stale lock the log cannot show) and
--follow reports while the failing process is still running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict

import pytest

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "cases" / "explain"))
import produce  # noqa: E402

ORACLE = produce.ORACLE

# One live run per family (the rest of the real fixtures were made by the same code and are replayed by
# tests/test_explain_cases.py): op build on 0.15.4 / 0.19.7 / 0.19.8, ZeRO-3 loading on 4.46.3 and 5.24.0,
# config, launch and resources.
LIVE = ("cuda-mismatch-ds0.15.4", "cuda-mismatch-ds0.19.7", "ninja-missing-ds0.19.8", "zero3-device-map-tf4.46.3",
        "zero3-low-cpu-mem-tf4.46.3", "zero3-device-map-tf5.24.0", "offload-client-optimizer", "batch-size-mismatch",
        "port-in-use", "sigkill-rank-launcher")



def _explain(path: Path, *args: str, env: Dict[str, str] = None) -> Dict[str, Any]:  # type: ignore[assignment]
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", "-f", "json", *args, str(path)], capture_output=True,
                       text=True, timeout=300, env=env)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", LIVE)
def test_live_failure_is_explained(name: str, tmp_path: Path) -> None:
    s = produce.BY_NAME[name]
    rc, out = produce.run(s, tmp_path)
    assert rc != 0, out[-2000:]
    log = tmp_path / "run.log"
    log.write_text(out)
    d = _explain(log)["diagnoses"][0]
    assert d["name"] == s.expect, (d, out[-3000:])
    cons = " ".join(c["text"] for c in d["consequences"])
    for want in s.consequences:
        assert want in cons, (want, d["consequences"])
    if s.evidence:
        assert any(s.evidence in e["text"] for e in d["evidence"]), d["evidence"]
    lines = out.split("\n")
    for e in d["evidence"]:  # the evidence line numbers point at those very lines of the real output
        if e.get("source") == str(log):
            assert e["text"].strip() in lines[e["line"] - 1], (e, lines[e["line"] - 1])


def test_stale_lock_needs_env(tmp_path: Path) -> None:
    """torch 2.13 hangs silently on a leftover lock: the log shows nothing; --env finds the lock."""
    s = produce.BY_NAME["stale-lock-torch2.13-ds0.15.4"]
    rc, out = produce.run(s, tmp_path)
    assert rc == 124, out  # killed by `timeout`: it hung
    log = tmp_path / "run.log"
    log.write_text(out)
    assert _explain(log)["diagnoses"][0]["name"] == "no-failure"
    env = dict(os.environ, TORCH_EXTENSIONS_DIR=str(tmp_path / "ext"), PYTHONPATH=str(ORACLE / "ds" / "0.15.4"))
    d = _explain(log, "--env", "--python", str(ORACLE / "venv-cpu213" / "bin" / "python"), env=env)["diagnoses"][0]
    assert d["name"] == "torch-extensions-lock-stale", d
    assert any(str(tmp_path / "ext" / "cpu_adam" / "lock") in " ".join(f["commands"]) for f in d["fixes"]), d["fixes"]


def test_follow_reports_while_the_run_is_live(tmp_path: Path) -> None:
    """--follow on a log a real failing run is still writing: it reports the cause and exits by itself."""
    s = produce.BY_NAME["cuda-mismatch-ds0.19.7"]
    log = tmp_path / "live.log"
    env = s.environ(tmp_path)
    (tmp_path / "train.py").write_text(s.code + "import time\ntime.sleep(60)\n")  # the process stays alive
    with open(log, "wb") as fh:
        proc = subprocess.Popen([str(ORACLE / s.python / "bin" / "python"), "train.py"], cwd=tmp_path, env=env,
                                stdout=fh, stderr=subprocess.STDOUT)
        try:
            t0 = time.monotonic()
            p = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", "--follow", "--follow-seconds", "120",
                                "-f", "json", str(log)], capture_output=True, text=True, timeout=200)
            assert proc.poll() is None or time.monotonic() - t0 < 60  # reported before the run ended
        finally:
            proc.kill()
            proc.wait()
    out = json.loads(p.stdout)
    assert out["diagnoses"][0]["name"] == "cuda-version-mismatch", out


def test_fixture_producer_is_importable_without_running() -> None:
    assert len(produce.SCENARIOS) >= 20 and tempfile.gettempdir()
