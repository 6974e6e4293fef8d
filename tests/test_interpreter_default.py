"""Which interpreter `check` inspects without --python: dsdoctor's own, unless it has no torch and the active
virtualenv (or the first python3 on PATH) is another environment that has it (a pipx install of dsdoctor)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest

REPO = Path(__file__).resolve().parents[1]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
TORCH_VENV = ORACLE / "venv"


def _check(env: Dict[str, str], cwd: Path) -> dict:  # type: ignore[type-arg]
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check", "--format", "json", "--exit-zero"],
                       capture_output=True, text=True, env=env, cwd=cwd, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def _env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    env["PYTHONPATH"] = str(REPO / "src")
    env.update(extra)
    return env


def _own_has_torch() -> bool:
    import importlib.util
    return importlib.util.find_spec("torch") is not None


def test_active_virtualenv_with_torch_is_checked(tmp_path: Path) -> None:
    if not (TORCH_VENV / "bin" / "python").is_file() or not (ORACLE / ".provisioned").is_file():
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1":
            pytest.fail("oracle not provisioned: run scripts/provision-oracle.sh")
        pytest.skip("oracle venv with real torch not provisioned: run scripts/provision-oracle.sh")
    if _own_has_torch():
        pytest.skip("the test interpreter has torch itself: it stays the checked one (next test)")
    data = _check(_env(VIRTUAL_ENV=str(TORCH_VENV)), tmp_path)
    facts = data["facts"]
    assert facts["python"] == str(TORCH_VENV / "bin" / "python")
    assert "$VIRTUAL_ENV" in facts["python_chosen"] and "has no torch" in facts["python_chosen"]
    assert facts["torch"], facts  # read from the chosen environment, not dsdoctor's
    assert not any(f["name"] == "package-missing" and "torch" in f["title"] for f in data["findings"])


def test_without_an_environment_with_torch_own_interpreter_is_checked(tmp_path: Path) -> None:
    """An active env without torch is not taken: dsdoctor's own interpreter stays, and says so only as before."""
    if _own_has_torch():
        pytest.skip("the test interpreter has torch")
    empty = tmp_path / "empty-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(empty)], check=True)
    # PATH holds only that venv, so no python3 of this machine with torch can be taken.
    data = _check(_env(VIRTUAL_ENV=str(empty), PATH=str(empty / "bin")), tmp_path)
    assert data["facts"]["python"] == sys.executable
    assert data["facts"]["python_chosen"] is None
    assert any(f["name"] == "package-missing" for f in data["findings"])


def test_bare_python_name_is_found_on_path(tmp_path: Path) -> None:
    """`--python python3` is looked up on PATH as a shell would, by check and smoke alike (not taken as ./python3)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "mypython").symlink_to(sys.executable)
    env = _env(PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "check", "--python", "mypython", "--format", "json", "--exit-zero"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout)["facts"]["python"], p.stdout[:500]
    # smoke's own check of --python: a name not on PATH is still refused with its clear message
    q = subprocess.run([sys.executable, "-m", "dsdoctor", "smoke", "--python", "no-such-python-xyz"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert q.returncode == 2 and "cannot use --python" in q.stderr, q.stderr[-500:]
