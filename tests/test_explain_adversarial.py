"""Hostile input for explain: huge lines, pathological repetitions of every signature's needle, random bytes.

Each must give a bounded result: explain finishes (a generous liveness limit on a subprocess, not a timing
assertion), never raises, and its output stays small. The patterns are linear by construction (bounded token
classes between literals; see explain/causes/cause.py): test_every_explain_pattern_is_linear checks that on the
parse tree of every signature pattern and every module-level pattern of dsdoctor.explain (tests/linear_regex.py),
and test_the_linearity_check_flags_catastrophic_patterns shows that check fails on known backtracking patterns."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linear_regex import risks

import dsdoctor.explain
from dsdoctor.explain import diagnose_log
from dsdoctor.explain.causes import SIGNATURES
from dsdoctor.explain.reader import MAX_LINE_BYTES, bytes_stream, clean, iter_chunks

LIVENESS_S = 120  # a hang or catastrophic backtracking would exceed this by orders of magnitude


def _explain_file(path: Path) -> dict:  # type: ignore[type-arg]
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", "-f", "json", str(path)], capture_output=True,
                       text=True, timeout=LIVENESS_S)
    assert p.returncode in (0, 1), p.stderr
    assert len(p.stdout) < 200_000
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def test_10mb_single_line(tmp_path: Path) -> None:
    f = tmp_path / "one.log"
    f.write_bytes(b"a" * (10 << 20))
    assert _explain_file(f)["diagnoses"][0]["name"] == "no-failure"


def test_10mb_line_of_needles_then_the_cause(tmp_path: Path) -> None:
    """Every needle repeated over a 10 MB line (no newline); the real cause comes after it."""
    needles = " ".join(s.needle for s in SIGNATURES).encode()
    f = tmp_path / "needles.log"
    with open(f, "wb") as fh:
        while fh.tell() < (10 << 20):
            fh.write(needles + b" \x1b[ \r [rank1]: File \"x\", line 1, in y Traceback ")
        fh.write(b"\nRuntimeError: Unable to JIT load the cpu_adam op due to ninja not being installed.\n")
    out = _explain_file(f)
    assert out["diagnoses"][0]["name"] == "ninja-missing"


def test_progress_bar_line_keeps_its_tail() -> None:
    raw = b"\r".join(b" %3d%%|####| %d/100" % (i, i) for i in range(200_000)) + b"Traceback (most recent call last):\n"
    chunks = list(iter_chunks(bytes_stream(raw)))
    assert max(len(c) for c in chunks) <= MAX_LINE_BYTES + 64
    _, text = clean(chunks[0].rstrip(b"\n"))
    assert "Traceback" in text


def _explain_patterns() -> List[Tuple[str, str]]:
    """(where, regex) of every signature and every module-level compiled pattern of dsdoctor.explain."""
    out = [(f"signature {s.needle!r}", s.pattern.pattern) for s in SIGNATURES]
    for info in pkgutil.walk_packages(dsdoctor.explain.__path__, "dsdoctor.explain."):
        for attr, value in vars(importlib.import_module(info.name)).items():
            if isinstance(value, re.Pattern):
                out.append((f"{info.name}.{attr}", value.pattern if isinstance(value.pattern, str) else value.pattern.decode()))
    return out


def test_every_explain_pattern_is_linear() -> None:
    """No nested or group-wide unbounded quantifier, none next to an overlapping class (tests/linear_regex.py)."""
    patterns = _explain_patterns()
    assert len(SIGNATURES) >= 160 and len(patterns) >= len(SIGNATURES) + 20, len(patterns)  # 167 + 21 today
    bad = {where: risks(rx) for where, rx in patterns if risks(rx)}
    assert not bad, bad


@pytest.mark.parametrize("pattern,kind", [
    (r"x(a+)+$", "nested"),               # the textbook catastrophic pattern
    (r"x(?:\s+)*y", "nested"),
    (r"x(\w|\d)*y", "group"),             # overlapping alternatives under * (Python merges them; refused anyway)
    (r"x(a|aa)+b", "group"),
    (r"=\d+\w{1,9}x", "overlapping"),      # quadratic: two runs over the same characters
    (r"=.*.*=", "overlapping"),
    (r"\s*x", "starts"),                   # quadratic under search: every start rescans the run
])
def test_the_linearity_check_flags_catastrophic_patterns(pattern: str, kind: str) -> None:
    got = risks(pattern)
    assert any(kind in r for r in got), got


@pytest.mark.parametrize("pattern", [r"foo\s*$", r"x\S{1,200}? bar", r"^\s*x", r"a\s*\S+b", r"a[^:]*:\d+",
                                     r"shape '\[(?:-?\d{1,12}, ){0,6}0(?:, -?\d{1,12}){0,6}\]'"])
def test_the_linearity_check_passes_linear_patterns(pattern: str) -> None:
    assert risks(pattern) == []


def test_each_pattern_on_its_own_needle_repeated() -> None:
    """Near-misses built from each signature's needle, 20k times on one line: explain gives an answer for each
    (liveness only: linearity is test_every_explain_pattern_is_linear's)."""
    runs = 0
    for sig in SIGNATURES:
        for filler in (" ", "x", "", "'", "("):
            line = (sig.needle + filler) * 2000
            report = diagnose_log(line[:60_000] + "\n")  # would take minutes on a backtracking pattern
            assert report.findings, (sig.needle, filler)
            runs += 1
    assert runs == 5 * len(SIGNATURES) >= 800


def test_many_ranks_and_tracebacks_stay_bounded() -> None:
    lines = []
    for r in range(5000):
        lines.append(f"[rank{r}]: Traceback (most recent call last):")
        lines.append(f'[rank{r}]:   File "/x/train.py", line {r}, in f{r}')
        lines.append(f"[rank{r}]: ValueError: bad value {r}")
    report = diagnose_log("\n".join(lines) + "\n")
    assert len(json.dumps([f.to_json() for f in report.findings])) < 100_000


def test_truncated_gzip_and_non_utf8(tmp_path: Path) -> None:
    import gzip

    data = gzip.compress(b"\xff\xfe\x00garbage\n" * 1000 + b"RuntimeError: Ninja is required to load C++ extensions\n")
    f = tmp_path / "cut.log.gz"
    f.write_bytes(data[: len(data) - 10])  # cut: no gzip trailer
    out = _explain_file(f)
    assert out["diagnoses"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4000))
def test_random_bytes_never_crash(data: bytes) -> None:
    report = diagnose_log(data.decode("utf-8", "surrogateescape"))
    assert report.findings
