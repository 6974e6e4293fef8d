"""Oracle for `dsdoctor verify`: it really builds cpu_adam with the provisioned DeepSpeed and must name
the root cause DeepSpeed printed, not the ds_opt_adam AttributeError that comes last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"



def _env(ds: str, nvcc: str, **extra: str) -> Dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ORACLE / "ds" / ds), CUDA_HOME=str(ORACLE / "nvcc" / nvcc / "nvidia" / "cu13"),
               DS_ACCELERATOR="cuda", PATH=f"{ORACLE / 'venv' / 'bin'}:{env.get('PATH', '')}")
    env.pop("DS_SKIP_CUDA_CHECK", None)
    env.update(extra)
    return env


def _verify(env: Dict[str, str], *args: str, timeout: int = 900) -> "tuple[int, dict]":  # type: ignore[type-arg]
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "verify", "--python", str(VPY), "--format", "json", *args],
                       capture_output=True, text=True, env=env, timeout=timeout)
    assert "Traceback" not in p.stderr.split("build log")[0], p.stderr
    return p.returncode, json.loads(p.stdout)


def test_verify_names_the_mismatch_not_ds_opt_adam(tmp_path: Path) -> None:
    rc, out = _verify(_env("0.19.7", "13.5"), "--extensions-dir", str(tmp_path / "ext"))
    assert rc == 1
    first = out["findings"][0]
    assert first["name"] == "cuda-version-mismatch", out["findings"]
    texts = [e["what"] for e in first["evidence"]]
    # the real DeepSpeed line is the evidence; the AttributeError is only a consequence
    assert any("Installed CUDA version 13.5 does not match the version torch was compiled with 13.0" in t for t in texts), texts
    assert any(e["where"] == "consequence" and "ds_opt_adam" in e["what"] for e in first["evidence"]), first["evidence"]
    # the same fixes `check` gives: a matching 13.0 toolkit first, DS_SKIP_CUDA_CHECK=1, upgrade to 0.19.8
    titles = " | ".join(f["title"] for f in first["fixes"])
    assert "DS_SKIP_CUDA_CHECK" in json.dumps(first["fixes"]) and "0.19.8" in titles


def test_verify_builds_cpu_adam_on_0_19_8(tmp_path: Path) -> None:
    # same mismatched toolkit: 0.19.8 builds cpu_adam as a plain CPU op, no CUDA check
    ext = ORACLE / "ext-verify-0.19.8"  # kept between runs: a cached build still loads for real
    rc, out = _verify(_env("0.19.8", "13.5"), "--extensions-dir", str(ext))
    assert rc == 0, out
    assert not out["findings"]
    assert out["passed"] and "cpu_adam built and loaded" in out["passed"][0]["title"]


def _lock(tmp_path: Path) -> Path:
    ext = tmp_path / "ext"
    (ext / "cpu_adam").mkdir(parents=True)
    (ext / "cpu_adam" / "lock").write_text("")
    return ext


def test_stale_lock_hangs_torch_2_13(tmp_path: Path) -> None:
    """torch <= 2.13 (FileBaton): a leftover lock file makes the build wait forever, silently."""
    py = ORACLE / "venv-cpu213" / "bin" / "python"
    if not py.exists():
        pytest.fail("venv-cpu213 missing: scripts/provision-oracle.sh makes it")
    ext = _lock(tmp_path)
    env = _env("0.19.8", "13.0")
    env.pop("DS_ACCELERATOR")  # a CPU torch: DeepSpeed picks the CPU accelerator itself
    env["PATH"] = f"{py.parent}:{os.environ.get('PATH', '')}"
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check", "--python", str(py), "--format", "json"],
                       capture_output=True, text=True, env=dict(env, TORCH_EXTENSIONS_DIR=str(ext)), timeout=60)
    predicted = json.loads(p.stdout)["predictions"]["cpu_adam"]
    assert predicted["cause"] == "torch-extensions-lock-stale", predicted
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "verify", "--python", str(py), "--format", "json",
                        "--extensions-dir", str(ext), "--timeout", "25"], capture_output=True, text=True, env=env, timeout=120)
    out = json.loads(p.stdout)
    assert p.returncode == 1
    names = [f["name"] for f in out["findings"]]
    assert "torch-extensions-lock-stale" in names and "op-build-failed" in names, out["findings"]
    assert out["facts"]["cpu_adam"]["timed_out"] is True


def test_stale_lock_is_harmless_from_torch_2_14(tmp_path: Path) -> None:
    """torch 2.14 holds an OS file lock instead: the same leftover file no longer blocks the build."""
    ext = _lock(tmp_path)
    env = _env("0.19.8", "13.0")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check", "--python", str(VPY), "--format", "json"],
                       capture_output=True, text=True, env=dict(env, TORCH_EXTENSIONS_DIR=str(ext)), timeout=60)
    out = json.loads(p.stdout)
    assert out["predictions"]["cpu_adam"]["loads"] is True
    assert "torch-extensions-lock-stale" not in {f["name"] for f in out["findings"]}
    rc, out = _verify(env, "--extensions-dir", str(ext), "--timeout", "600")
    assert rc == 0, out["findings"]
