"""The directory walk of ``dsdoctor lint DIR`` (lint/discover.py): a repository past the walk's file cap is read up
to it and the output says what was left out (``facts["not_read"]``, a ``not read:`` line), never silently."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dsdoctor.lint import discover, lint
from dsdoctor.settings import Settings


def _project(root: Path, n: int) -> None:
    for i in range(n):
        d = root / f"part{i}"
        d.mkdir()
        (d / "train.py").write_text("print('hi')\n")


def test_walk_says_where_it_stopped(tmp_path: Path) -> None:
    _project(tmp_path, 5)
    stopped: "list[str]" = []
    files = discover.walk(str(tmp_path), max_files=3, stopped=stopped)
    assert len(files) == 3 and len(stopped) == 1
    assert "stopped at 3 files" in stopped[0] and "part2" in stopped[0]
    assert discover.walk(str(tmp_path), stopped=stopped) and len(stopped) == 1  # under the cap: nothing to say


def test_lint_facts_name_what_was_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, 4)
    monkeypatch.setattr(discover, "MAX_FILES", 2)
    monkeypatch.chdir(tmp_path)
    facts = lint(["."], settings=Settings()).report.facts
    assert len(facts["files"]) == 2 and "stopped at 2 files" in facts["not_read"][0]
    monkeypatch.setattr(discover, "MAX_FILES", 100)
    assert "not_read" not in lint(["."], settings=Settings()).report.facts


def test_cli_whole_walk_has_no_not_read(tmp_path: Path) -> None:
    _project(tmp_path, 3)
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", ".", "--format", "json", "--exit-zero"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = json.loads(p.stdout)
    assert len(out["facts"]["files"]) == 3 and "not_read" not in out["facts"]
