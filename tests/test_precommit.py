"""The pre-commit hooks (.pre-commit-hooks.yaml) run for real: ``pre-commit try-repo`` builds dsdoctor into
pre-commit's own hook venv from this repository and runs ``dsdoctor-lint`` / ``dsdoctor-fix`` on a user
project holding the bundled example plus files that are not DeepSpeed's (skipped by ``--sniff``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Tuple

import pytest

REPO = Path(__file__).resolve().parents[1]
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

pytestmark = pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit not installed (dev extra)")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Dict[str, str]]:
    root = tmp_path_factory.mktemp("precommit")
    proj = root / "proj"
    shutil.copytree(REPO / "examples" / "zero3-offload", proj)
    (proj / "package.json").write_text('{"name": "web", "version": "1.0.0", "dependencies": {}}\n')
    (proj / "workflow.yml").write_text("on: push\njobs: {}\n")
    _git(proj, "init", "-q")
    _git(proj, "add", "-A")
    _git(proj, "commit", "-qm", "init")
    env = dict(os.environ, PRE_COMMIT_HOME=str(root / "pc-home"), NO_COLOR="1")
    env.pop("VIRTUAL_ENV", None)
    return proj, env


def _try_repo(proj: Path, env: Dict[str, str], hook: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PRE_COMMIT), "try-repo", str(REPO), hook, "--all-files", "--verbose"], cwd=proj, env=env,
                          capture_output=True, text=True, timeout=900)


def test_manifest_is_valid() -> None:
    r = subprocess.run([str(PRE_COMMIT), "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_lint_hook_reports_and_skips_unrelated_files(project: Tuple[Path, Dict[str, str]]) -> None:
    proj, env = project
    r = _try_repo(proj, env, "dsdoctor-lint")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "train.py" in out and "zero3-device-map-conflict" in out, out
    assert "package.json" not in out.split("dsdoctor lint", 1)[-1].split("- hook id")[-1], out  # sniffed away


def test_fix_hook_fixes_then_fails_for_review(project: Tuple[Path, Dict[str, str]]) -> None:
    proj, env = project
    before = (proj / "train.py").read_text()
    r = _try_repo(proj, env, "dsdoctor-fix")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "files were modified by this hook" in out, out
    after = (proj / "train.py").read_text()
    assert after != before and "is_deepspeed_zero3_enabled()" in after
    assert (proj / "package.json").read_text().startswith('{"name": "web"'), "an unrelated file was changed"
    r2 = _try_repo(proj, env, "dsdoctor-fix")  # idempotent: nothing left to fix
    assert r2.returncode == 0, r2.stdout + r2.stderr
