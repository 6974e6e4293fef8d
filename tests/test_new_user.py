"""Tried as a new user would: ``pip install .`` into a clean venv with no torch (the oldest Python dsdoctor
supports when this machine has it), then every command's ``--help`` and the README quick start, command by
command, as documented. Runs on a copy of the repo's tracked files so the build leaves nothing behind."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"


def _oldest_python() -> str:
    """Python 3.9 when installed (dsdoctor's floor), else the interpreter running the tests."""
    for cand in (shutil.which("python3.9"), os.path.expanduser("~/.pyenv/versions/3.9.18/bin/python")):
        if cand and os.path.exists(cand):
            ok = subprocess.run([cand, "-c", "import sys; assert sys.version_info[:2] == (3, 9)"], capture_output=True)
            if ok.returncode == 0:
                return cand
    return sys.executable


def quickstart() -> List[str]:
    """The commands of the README block between ``<!-- quickstart`` and ``<!-- /quickstart -->``."""
    text = README.read_text(encoding="utf-8")
    m = re.search(r"<!-- quickstart.*?-->\s*```bash\n(.*?)```\s*<!-- /quickstart -->", text, re.S)
    assert m, "README.md has no quickstart block"
    return [shlex.join(argv) for argv in (shlex.split(line, comments=True) for line in m.group(1).splitlines()) if argv]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Path, Dict[str, str]]:
    """(venv bin dir, repo copy, env): dsdoctor pip-installed (not editable) into a clean venv."""
    root = tmp_path_factory.mktemp("newuser")
    copy = root / "dsdoctor"
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for f in filter(None, files):
        src = REPO / f
        if src.is_file():
            (copy / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, copy / f)
    venv = root / "venv"
    subprocess.run([_oldest_python(), "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CUDA_HOME", "DS_"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(root / "home")
    env["NO_COLOR"] = "1"
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", "."],
                         cwd=copy, env=env, capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-3000:]
    no_torch = subprocess.run([str(venv / "bin" / "python"), "-c", "import importlib.util as u; print(u.find_spec('torch'))"],
                              capture_output=True, text=True, env=env)
    assert no_torch.stdout.strip() == "None", "the clean venv must not have torch"
    return venv / "bin", copy, env


def _commands(bindir: Path, env: Dict[str, str]) -> List[str]:
    code = "from dsdoctor.cli import commands; print(' '.join(sorted(commands())))"
    out = subprocess.run([str(bindir / "python"), "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


def test_installed_package_is_typed_and_complete(fresh: Tuple[Path, Path, Dict[str, str]]) -> None:
    bindir, copy, env = fresh
    code = ("import dsdoctor, pathlib, sys; d = pathlib.Path(dsdoctor.__file__).parent; "
            "assert 'site-packages' in str(d), d; "
            "print((d / 'py.typed').is_file(), (d / 'schema' / 'dsdoctor-output.schema.json').is_file(), "
            "callable(dsdoctor.preflight), 'torch' in sys.modules)")
    r = subprocess.run([str(bindir / "python"), "-c", code], capture_output=True, text=True, env=env, cwd="/")
    assert r.stdout.split() == ["True", "True", "True", "False"], r.stdout + r.stderr


def test_every_command_has_help(fresh: Tuple[Path, Path, Dict[str, str]]) -> None:
    bindir, copy, env = fresh
    cmds = _commands(bindir, env)
    assert {"check", "lint", "fix", "explain", "verify", "estimate", "smoke", "launch", "rules", "rule", "report"} <= set(cmds)
    top = subprocess.run([str(bindir / "dsdoctor"), "--help"], capture_output=True, text=True, env=env, cwd=copy)
    assert top.returncode == 0 and all(c in top.stdout for c in cmds), top.stdout
    for c in cmds:
        r = subprocess.run([str(bindir / "dsdoctor"), c, "--help"], capture_output=True, text=True, env=env, cwd=copy,
                           timeout=60)
        assert r.returncode == 0, (c, r.stderr)
        assert "Usage:" in r.stdout and "Traceback" not in r.stdout + r.stderr, (c, r.stdout)


DSDOCTOR_FRAME = re.compile(r'File "[^"]*/dsdoctor/[^"]*\.py"')

# What each quick-start command must show (the README promises it) and the exit codes it may have.
EXPECT = {
    "check": ("package-missing", {1}),  # the clean venv has no torch / deepspeed: reported, not a traceback
    "lint": ("zero3-device-map-conflict", {1}),
    "fix": ("is_deepspeed_zero3_enabled()", {0, 1}),
    "explain": ("cuda-version-mismatch", {1}),
    "rules": ("cuda-version-mismatch", {0}),
    "rule": ("Why", {0}),
    "report": ("", {0, 1}),
}


def test_readme_quickstart(fresh: Tuple[Path, Path, Dict[str, str]]) -> None:
    bindir, copy, env = fresh
    cmds = quickstart()
    assert len(cmds) >= 6
    seen = set()
    for cmd in cmds:
        argv = shlex.split(cmd)
        assert argv[0] == "dsdoctor", cmd
        sub = argv[1]
        r = subprocess.run([str(bindir / "dsdoctor"), *argv[1:]], capture_output=True, text=True, env=env, cwd=copy,
                           timeout=600)
        out = r.stdout + r.stderr
        assert not DSDOCTOR_FRAME.search(out) and "internal error" not in out, (cmd, out)  # logs it quotes may hold tracebacks
        want, codes = EXPECT[sub]
        assert r.returncode in codes, (cmd, r.returncode, out[-3000:])
        assert want in out, (cmd, out[-3000:])
        seen.add(sub)
    report = copy / "report.md"
    assert report.is_file() and "cuda-version-mismatch" in report.read_text(), "report -o must write the bug report"
    assert seen == set(EXPECT), seen
    # the quick start changed nothing it was not asked to change (fix ran with --diff)
    assert (copy / "examples/zero3-offload/train.py").read_text() == (REPO / "examples/zero3-offload/train.py").read_text()
