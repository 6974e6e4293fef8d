"""Never a crash on an input (issue 18): analysing one file that raises, recurses too deep or runs out of time is a
``lint-analysis-failed`` finding about that file, and the other files are still linted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

from dsdoctor import names as N

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "tests" / "cases" / "lint" / "analysis" / "self-default"
DEEP = "# from_pretrained, deepspeed.initialize\nx = " + " + ".join(["1"] * 1500) + "\n"


def _lint(cwd: Path, *args: str) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "-f", "json", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _findings(p: "subprocess.CompletedProcess[str]") -> List[Dict[str, Any]]:
    assert p.returncode != 2 and "Traceback" not in p.stderr + p.stdout and "internal error" not in p.stderr, p.stderr
    return list(json.loads(p.stdout)["findings"])


def test_self_defaulted_parameter_is_linted(tmp_path: Path) -> None:
    """``x = x if x is not None else 1`` then ``if x:`` in a file that mentions from_pretrained (a ZeRO-3 project):
    lint once aborted with RecursionError; now every file is linted and nothing fails."""
    shutil.copytree(CASE, tmp_path / "proj")
    found = _findings(_lint(tmp_path, "proj"))
    names = {(Path(f["path"]).name, f["name"]) for f in found}
    assert ("train.py", N.ZERO3_DEVICE_MAP_CONFLICT) in names  # the other files are still linted
    assert ("ds_config.json", N.ZERO3_16BIT_SAVE_DISABLED) in names
    assert not any(n == N.LINT_ANALYSIS_FAILED for _, n in names), found


def test_deeply_nested_expression_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    """An expression 1500 levels deep makes the analysis raise RecursionError: a finding about that file, which
    says what went wrong (type and message, no traceback); the other files are linted."""
    shutil.copytree(CASE, tmp_path / "proj")
    (tmp_path / "proj" / "generated.py").write_text(DEEP)
    found = _findings(_lint(tmp_path, "proj"))
    failed = [f for f in found if f["name"] == N.LINT_ANALYSIS_FAILED]
    assert [Path(f["path"]).name for f in failed] == ["generated.py"], found
    assert "RecursionError" in failed[0]["title"] and "Traceback" not in json.dumps(failed[0])
    assert any(f["name"] == N.ZERO3_DEVICE_MAP_CONFLICT and f["path"].endswith("train.py") for f in found)


@pytest.fixture()
def raising_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ds_config rule ``bucket-size-float`` raises on every file."""
    from dataclasses import replace

    from dsdoctor.lint import all_rules

    def boom(t: object) -> Iterator[object]:
        raise ValueError("boom\nsecond line")
        yield  # pragma: no cover

    rules = tuple(replace(r, check=boom) if r.name == N.BUCKET_SIZE_FLOAT else r for r in all_rules.RULES)
    monkeypatch.setattr(all_rules, "RULES", rules)
    yield


def test_rule_that_raises_is_a_finding(tmp_path: Path, raising_rule: None) -> None:
    from dsdoctor.lint import lint

    cfg = tmp_path / "ds_config.json"
    cfg.write_text('{"train_batch_size": 8, "train_batch_size": 8}\n')
    found = lint([str(tmp_path / "ds_config.json")]).report.findings
    failed = [f for f in found if f.name == N.LINT_ANALYSIS_FAILED]
    assert len(failed) == 1 and failed[0].path == str(cfg)
    assert "ValueError: boom second line" in failed[0].title  # one line: type and message
    assert any(f.name == N.DS_CONFIG_DUPLICATE_KEY for f in found)  # the other rules still ran


def test_time_out_is_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from dsdoctor.lint import all_rules, lint, one_file

    def slow(t: object) -> Iterator[object]:
        time.sleep(5)
        return iter(())

    rules = tuple(replace(r, check=slow) if r.name == N.BUCKET_SIZE_FLOAT else r for r in all_rules.RULES)
    monkeypatch.setattr(all_rules, "RULES", rules)
    monkeypatch.setattr(one_file, "FILE_SECONDS", 0.2)
    (tmp_path / "ds_config.json").write_text('{"zero_optimization": {"stage": 3}}\n')
    start = time.monotonic()
    found = lint([str(tmp_path / "ds_config.json")]).report.findings
    assert time.monotonic() - start < 4
    failed = [f for f in found if f.name == N.LINT_ANALYSIS_FAILED]
    assert len(failed) == 1 and "AnalysisTimeout: took over 0.2 s" in failed[0].title, failed


def _chained(levels: int, calls: int) -> str:
    """f0 .. f{levels-1}, each passing its parameter to the next ``calls`` times: without merging equal values, the
    last parameter holds calls ** levels of them (a 6,000-line trainer module took 87 s and 8 GB this way)."""
    lines = ["import deepspeed", ""]
    for i in range(levels):
        nxt = "".join(f"    f{i + 1}(p)\n" for _ in range(calls)) if i + 1 < levels else "    return p\n"
        lines.append(f"def f{i}(p=None):\n    if p:\n        p = p or None\n{nxt}")
    lines.append("f0(True)\n")
    return "\n".join(lines)


def test_values_of_a_name_stay_bounded() -> None:
    """Repeated values are merged and a name keeps at most MAX_VALUES of them (structure, not time, is asserted)."""
    import libcst as cst

    from dsdoctor.lint.script.evaluation import MAX_VALUES, Values, analyse

    script = analyse(cst.parse_module(_chained(9, 3)))
    last = next(sc for sc in script.all_scopes if getattr(getattr(sc.node, "name", None), "value", "") == "f8")
    vals = Values(script).of(cst.Name("p"), last)
    assert 0 < len(vals) <= MAX_VALUES + 1, len(vals)
    assert len({(v.kind, id(v.node)) for v in vals}) == len(vals)  # no value twice
