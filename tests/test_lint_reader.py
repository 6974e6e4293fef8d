"""The reader accepts/rejects exactly what hjson (DeepSpeed's loader) does; malformed input gives a positioned
error, never a traceback; realistic configs give no false errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Tuple

import hjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsdoctor.hjsondoc import Node, parse
from dsdoctor.lint import lint

REAL = Path(__file__).parent / "cases" / "lint" / "real"
TOKENS = ["{", "}", "[", "]", ":", ",", '"', "'", "'''", "#", "//", "/*", "*/", "\n", " ", "\t", "a", "b", "1", "-", ".",
          "e", "5", "true", "null", "x y", "\\", "\\n", "\\u0041", '"k": ', "a: ", "\r"]


def _dup(pairs: List[Tuple[str, Any]]) -> dict:  # type: ignore[type-arg]
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("Duplicate keys in DeepSpeed config")
    return d


def _walk(n: Node) -> Any:
    yield n
    for m in n.members:
        yield from _walk(m.value)
    for i in n.items:
        yield from _walk(i)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=14).map("".join))
def test_same_verdict_and_value_as_hjson(text: str) -> None:
    try:
        want: Any = ("ok", hjson.loads(text, object_pairs_hook=_dup))
    except (ValueError, IndexError, RecursionError, OverflowError):
        want = ("err",)
    doc = parse(text)
    if doc.error is None and doc.root is not None:
        dups = any(len({m.key for m in n.members}) != len(n.members) for n in _walk(doc.root))
        got: Any = ("err",) if dups else ("ok", doc.root.value)
    else:
        got = ("err",)
    assert got == want


def test_positions_of_keys() -> None:
    doc = parse('{\n  // c\n  "zero_optimization": {\n    stage: 3\n  }\n}')
    z = doc.root.member("zero_optimization") if doc.root else None
    assert z is not None and doc.linecol(z.start) == (3, 3)
    s = z.value.member("stage")
    assert s is not None and doc.linecol(s.start) == (4, 5) and s.value.value == 3


def _cli(*args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "--format", "json", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name,content,line", [
    ("truncated.json", b'{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 3', 3),
    ("binary.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", 1),
    ("deep.json", b"[" * 5000 + b"]" * 5000, 1),
    ("nul.json", b'{"a": 1}\x00', 1),
])
def test_malformed_input_positioned_error(tmp_path: Path, name: str, content: bytes, line: int) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    p = _cli(str(f))
    assert "Traceback" not in p.stderr and p.returncode == 1, p.stderr
    finds = json.loads(p.stdout)["findings"]
    assert finds[0]["name"] == "ds-config-invalid" and finds[0]["line"] == line and finds[0]["col"], finds


def test_50mb_file(tmp_path: Path) -> None:
    f = tmp_path / "huge.json"
    with open(f, "wb") as fh:
        fh.write(b'{"train_batch_size": 8, "pad": "' + b"x" * (50 * 2**20) + b'"}')
    p = _cli(str(f))
    assert "Traceback" not in p.stderr and p.returncode == 1
    fnd = json.loads(p.stdout)["findings"][0]
    assert fnd["name"] == "ds-config-invalid" and (fnd["line"], fnd["col"]) == (1, 1) and "MiB" in fnd["title"]


def test_the_real_configs_are_there() -> None:
    assert len(list(REAL.glob("*.json"))) >= 4  # today's number: the parametrized test below runs over them


@pytest.mark.parametrize("cfg", sorted(p.name for p in REAL.glob("*.json")))
@pytest.mark.parametrize("loaded_by", ["trainer", None])
def test_real_configs_no_false_errors(cfg: str, loaded_by: Any) -> None:
    text = (REAL / cfg).read_text()
    if loaded_by == "trainer" and "//" in text:
        loaded_by = "deepspeed"  # comments: a raw DeepSpeed path only
    res = lint([str(REAL / cfg)], world_size=8 if '"auto"' not in text else None, ds_version="0.19.8", loaded_by=loaded_by)
    errors = [(f.name, f.line, f.title) for f in res.report.findings if f.severity.value == "error"]
    assert not errors


def test_fix_keeps_comments_and_diff_previews(tmp_path: Path) -> None:
    f = tmp_path / "ds.json"
    orig = ('{\n  // keep me\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {\n'
            '    "stage": 3, /* and me */\n    "stage3_gather_fp16_weights_on_model_save": true,\n'
            '    "stage3_prefetch_bucket_size": 15099494.4\n  }\n}\n')
    f.write_text(orig)
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "--diff", str(f)], capture_output=True, text=True)
    assert "+    \"stage3_gather_16bit_weights_on_model_save\": true," in p.stdout and f.read_text() == orig
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "--fix", str(f)], capture_output=True, text=True)
    new = f.read_text()
    assert new == orig.replace("fp16_weights", "16bit_weights").replace("15099494.4", "15099494"), new
    assert p.returncode == 0, p.stdout


def test_overflowing_numbers_are_errors_like_hjson() -> None:
    """hjson turns 5e555 into inf, then int(inf) raises OverflowError: DeepSpeed cannot load such a config."""
    for text in ("5e555", "{a: 5e555}", '{"a": [1, -1e400]}'):
        assert parse(text).error is not None, text
    assert parse("{a: 5e55}").root is not None
