"""script-unparseable and a later Python's grammar (lint/script/grammar.py, lint/script/python_pin.py): a file the
running interpreter refuses that a newer Python reads is info, a warning only where the project pins an older
Python. The verdicts read libcst's tree and are the same on every interpreter (``running`` given)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dsdoctor.lint.script.grammar import newer_grammar
from dsdoctor.lint.script.python_pin import allows, python_pin

PEP701 = 'rows = [{"n": "a"}]\nprint(f"{rows[0]["n"]}: {len(\n    rows)}")\n'


@pytest.mark.parametrize("text, running, release", [
    (PEP701, (3, 11), (3, 12)),
    (PEP701, (3, 12), None),  # the running Python reads it: nothing newer explains a refusal
    ('x = f"{1 +\n 2}"\n', (3, 9), (3, 12)),  # a line break in a single-quoted f-string's braces
    ("x = f'''{1 +\n 2}'''\n", (3, 9), None),  # in a triple-quoted one: any Python 3.6+
    ("x = f'{\"a\"}'\n", (3, 9), None),  # another quote than its own: any Python 3.6+
    ("match x:\n    case 1:\n        pass\n", (3, 9), (3, 10)),
    ("try:\n    pass\nexcept* ValueError:\n    pass\n", (3, 10), (3, 11)),
    ("def f[T](x: T) -> T:\n    return x\n", (3, 11), (3, 12)),
    ("def f(:\n    pass\n", (3, 9), None),  # a syntax error of every grammar
    ('print f"{x}"\n', (3, 9), None),  # Python 2
])
def test_newer_grammar(text: str, running: "tuple[int, int]", release: "tuple[int, int] | None") -> None:
    got = newer_grammar(text, running)
    assert (got[0] if got else None) == release


@pytest.mark.parametrize("name, text, spec, newer", [
    ("pyproject.toml", '[project]\nname = "x"\nrequires-python = ">=3.8,<3.12"\n', ">=3.8,<3.12", False),
    ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.10"\n', ">=3.10,<4", True),
    ("setup.py", 'setup(name="x", python_requires=">=3.7")\n', ">=3.7", True),
    ("environment.yml", "name: x\ndependencies:\n  - python=3.10\n  - pip\n", "==3.10.*", False),
    ("README.md", "```\nconda create -n x python=3.11 -y\n```\n", "==3.11.*", False),
])
def test_python_pin(tmp_path: Path, name: str, text: str, spec: str, newer: bool) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / name).write_text(text)
    (tmp_path / "tool.py").write_text("print(1)\n")
    got = python_pin(str(tmp_path / "tool.py"))
    assert got is not None and got[0] == spec and f"{name}:" in got[1]
    assert allows(got[0], (3, 12)) is newer


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12+ parses PEP 701 f-strings: no finding at all")
@pytest.mark.parametrize("pin, severity", [(None, "info"), ('">=3.8,<3.12"', "warning"), ('">=3.8"', "info")])
def test_pinned_older_python(tmp_path: Path, pin: "str | None", severity: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "report.py").write_text(PEP701)
    if pin is not None:
        (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\nrequires-python = {pin}\n')
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", ".", "--format", "json", "--exit-zero"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    found = [f for f in json.loads(p.stdout)["findings"] if f["name"] == "script-unparseable"]
    assert [f["severity"] for f in found] == [severity]
