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


def test_cap_drops_the_deepest_files(tmp_path: Path) -> None:
    """A bulk tree deep below a folder that sorts first (a vendored benchmark's task files) is what the cap leaves
    out, not the training folder beside it; under the cap the files come in path order (directory files first)."""
    bulk = tmp_path / "a_eval" / "harness" / "tasks"
    bulk.mkdir(parents=True)
    for i in range(6):
        (bulk / f"task{i}.yaml").write_text("task: x\n")
    (tmp_path / "b_train").mkdir()
    (tmp_path / "b_train" / "run.sh").write_text("deepspeed fit.py --deepspeed z3.json\n")
    (tmp_path / "b_train" / "fit.py").write_text("print('fit')\n")
    (tmp_path / "top.py").write_text("print('top')\n")
    (bulk / "moe").mkdir()
    (bulk / "moe" / "train_moe.sh").write_text("deepspeed moe.py --deepspeed z3.json\n")  # past the cap: a recipe
    (bulk / "moe" / "moe.py").write_text("print('moe')\n")
    stopped: "list[str]" = []
    files = [Path(f).relative_to(tmp_path).as_posix() for f in discover.walk(str(tmp_path), max_files=5, stopped=stopped)]
    assert files == ["top.py", "a_eval/harness/tasks/task0.yaml", "a_eval/harness/tasks/task1.yaml",
                     "a_eval/harness/tasks/moe/train_moe.sh", "b_train/fit.py", "b_train/run.sh"]
    assert "3 directories down" in stopped[0]
    every = [Path(f).relative_to(tmp_path).as_posix() for f in discover.walk(str(tmp_path))]
    assert every == ["top.py", *[f"a_eval/harness/tasks/task{i}.yaml" for i in range(6)],
                     "a_eval/harness/tasks/moe/moe.py", "a_eval/harness/tasks/moe/train_moe.sh", "b_train/fit.py",
                     "b_train/run.sh"]
