"""`dsdoctor completion bash|zsh|fish`: the scripts are derived from the parser, and the real shells complete with
them (commands, a command's options, an option's fixed values, file names). A shell that is not installed is
skipped with a message (bash always runs)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from dsdoctor.cli import app
from dsdoctor.completion import SHELLS, script


def _script(shell: str, tmp_path: Path) -> Path:
    out = subprocess.run([sys.executable, "-m", "dsdoctor", "completion", shell], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == script(app.parser(), shell)
    path = tmp_path / f"dsdoctor.{shell}"
    path.write_text(out.stdout)
    return path


def _bash(path: Path, words: List[str], cwd: Path) -> List[str]:
    arr = " ".join(f"'{w}'" for w in words)
    cmd = f"source {path}; COMP_WORDS=({arr}); COMP_CWORD={len(words) - 1}; _dsdoctor; printf '%s\\n' \"${{COMPREPLY[@]}}\""
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=cwd)
    assert out.returncode == 0, out.stderr
    return [w for w in out.stdout.split("\n") if w]


CASES = [
    (["dsdoctor", "ch"], ["check"]),
    (["dsdoctor", "r"], ["rules", "rule", "report"]),
    (["dsdoctor", "check", "--fo"], ["--format"]),
    (["dsdoctor", "check", "--format", ""], ["text", "json", "sarif", "github"]),
    (["dsdoctor", "lint", "--fail-on", "w"], ["warning"]),
    (["dsdoctor", "completion", ""], ["bash", "zsh", "fish"]),
    (["dsdoctor", "explain", "--for"], ["--format"]),
    (["dsdoctor", "rules", "-f", ""], ["text", "json"]),
]


@pytest.mark.parametrize("words, want", CASES, ids=[" ".join(w) for w, _ in CASES])
def test_bash_completes(words: List[str], want: List[str], tmp_path: Path) -> None:
    assert sorted(_bash(_script("bash", tmp_path), words, tmp_path)) == sorted(want)


def test_bash_leaves_file_names_to_bash(tmp_path: Path) -> None:
    """A path argument or option value: no words of ours, so `complete -o default` completes file names."""
    path = _script("bash", tmp_path)
    assert _bash(path, ["dsdoctor", "lint", "ds_"], tmp_path) == []
    assert _bash(path, ["dsdoctor", "check", "--ds-config", ""], tmp_path) == []
    assert "complete -o default -F _dsdoctor dsdoctor" in path.read_text()


def test_every_command_and_option_is_in_the_scripts() -> None:
    top = app.parser()
    sub = next(a for a in top._actions if hasattr(a, "choices") and isinstance(a.choices, dict))
    for shell in SHELLS:
        text = script(top, shell)
        for name, p in sub.choices.items():
            assert name in text, (shell, name)
            for a in p._actions:
                for flag in a.option_strings:
                    assert (flag if shell != "fish" else flag.lstrip("-")) in text, (shell, name, flag)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (apt-get install zsh)")
def test_zsh_completes(tmp_path: Path) -> None:
    path = _script("zsh", tmp_path)
    assert subprocess.run(["zsh", "-n", str(path)]).returncode == 0
    cmd = (f"autoload -U +X compinit && compinit -u; source {path}; setopt ksharrays; "
           "COMP_WORDS=(dsdoctor check --format ''); COMP_CWORD=3; _dsdoctor; print -l ${COMPREPLY[@]}")
    out = subprocess.run(["zsh", "-f", "-c", cmd], capture_output=True, text=True, cwd=tmp_path)
    assert sorted(out.stdout.split()) == ["github", "json", "sarif", "text"], out.stderr


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (apt-get install fish)")
def test_fish_completes(tmp_path: Path) -> None:
    path = _script("fish", tmp_path)
    got = {}
    for line in ["dsdoctor ch", "dsdoctor check --format ", "dsdoctor completion "]:
        out = subprocess.run(["fish", "--no-config", "-c", f"source {path}; complete -C '{line}'"], capture_output=True,
                             text=True, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        got[line] = sorted(ln.split("\t")[0] for ln in out.stdout.splitlines())
    assert got["dsdoctor ch"] == ["check"]
    assert got["dsdoctor check --format "] == ["github", "json", "sarif", "text"]
    assert got["dsdoctor completion "] == ["bash", "fish", "zsh"]
