"""dsdoctor.codecache: dataclasses' generated methods compiled once across runs, with the same behaviour."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import types
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from dsdoctor import codecache

SOURCE = '''
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: tuple = field(default=())

@dataclass(order=True)
class Box:
    size: int
    name: str = "b"
'''


@pytest.fixture
def module() -> Iterator[Any]:
    mod = types.ModuleType("ccpkg.mod")
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


def _define(mod: Any, where: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codecache, "_directory", lambda: str(where))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    with codecache.installed():
        exec(compile(SOURCE, "ccpkg/mod.py", "exec"), vars(mod))  # noqa: S102 - the test's own source
    assert "exec" not in vars(dataclasses)


def _check(mod: Any) -> None:
    p = mod.Point(1, 2)
    assert p == mod.Point(1, 2) and p != mod.Point(2, 1) and hash(p) == hash(mod.Point(1, 2))
    assert repr(p) == "Point(x=1, y=2, tags=())"
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    assert mod.Box(1) < mod.Box(2) and mod.Box(3).name == "b"


def test_the_table_is_written_then_read(tmp_path: Path, module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _define(module, tmp_path, monkeypatch)
    _check(module)
    tables = [p for p in os.listdir(tmp_path) if p.startswith("dataclass-code.ccpkg.")]
    assert len(tables) == 1
    read = codecache._read(str(tmp_path / tables[0]))
    assert read and all("def __create_fn__" in text for text in read)
    compiled: List[Any] = []
    real = compile

    def counted(*a: Any, **k: Any) -> Any:
        compiled.append(a)
        return real(*a, **k)

    monkeypatch.setattr("builtins.compile", counted)
    _define(module, tmp_path, monkeypatch)  # the second run compiles none of the methods
    monkeypatch.undo()
    assert not [a for a in compiled if "__create_fn__" in str(a[0])]
    _check(module)


def test_nothing_written_without_bytecode_or_with_a_bad_table(tmp_path: Path, module: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codecache, "_directory", lambda: str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with codecache.installed():
        exec(compile(SOURCE, "ccpkg/mod.py", "exec"), vars(module))  # noqa: S102
    assert not os.listdir(tmp_path)
    _check(module)
    tag = sys.implementation.cache_tag
    (tmp_path / f"dataclass-code.ccpkg.{tag}.marshal").write_bytes(b"not marshal")
    _define(module, tmp_path, monkeypatch)  # an unreadable table is ignored, then replaced
    _check(module)
    assert codecache._read(str(tmp_path / f"dataclass-code.ccpkg.{tag}.marshal"))


PATTERNS = [(r"(?P<name>[A-Za-z_]\w*)\s*=\s*(\d+(?:\.\d+)*)", 0), (r"^\s*#.*coding[:=]\s*([-\w.]+)", re.M),
            (r"from_pretrained|device_map|low_cpu_mem_usage", re.I), (rb"\x00+$", 0), (r"(a)|(b)(?(2)c|d)", 0)]
SAMPLES = ["x = 1.2.3", "# -*- coding: latin-1 -*-\nx", "FROM_PRETRAINED(", "ab\x00\x00", "bc", "ad", "a", ""]


def _compile_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> List[Any]:
    monkeypatch.setattr(codecache, "_directory", lambda: str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    re.purge()  # re's own per-process cache would answer before the compiler
    with codecache.installed():
        got = [re.compile(p, f) for p, f in PATTERNS]
    re.purge()
    return got


def _behaviour(pats: List[Any]) -> List[Any]:
    out: List[Any] = []
    for p in pats:
        out.append((p.pattern, p.flags, p.groups, dict(p.groupindex)))
        for s in SAMPLES:
            text: Any = s.encode() if isinstance(p.pattern, bytes) else s
            m = p.search(text)
            out.append(None if m is None else (m.span(), m.groups(), m.groupdict()))
    return out


def test_regexes_compiled_from_the_table_behave_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    re.purge()
    plain = _behaviour([re.compile(p, f) for p, f in PATTERNS])
    first = _compile_all(tmp_path, monkeypatch)
    tag = sys.implementation.cache_tag
    table = codecache._read(str(tmp_path / f"regex-code.{tag}.marshal"))
    assert set(PATTERNS) <= set(table) and all(table[k] is not None for k in PATTERNS)
    parser = re._parser if hasattr(re, "_parser") else re.sre_parse  # type: ignore[attr-defined]
    parsed: List[Any] = []
    real = parser.parse
    monkeypatch.setattr(parser, "parse", lambda *a, **k: parsed.append(a) or real(*a, **k))
    second = _compile_all(tmp_path, monkeypatch)  # from the table: re's parser never runs
    monkeypatch.setattr(parser, "parse", real)
    assert not [a for a in parsed if (a[0], a[1]) in set(PATTERNS)]
    assert _behaviour(first) == _behaviour(second) == plain


def test_a_pattern_re_refuses_still_raises_and_is_not_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(codecache, "_directory", lambda: str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    re.purge()
    for _ in range(2):
        with codecache.installed():
            with pytest.raises(re.error, match="missing \\)"):
                re.compile("(unclosed")
            assert re.compile("a+").fullmatch("aaa")
            assert re.compile("b+", re.DEBUG).fullmatch("bb")
        re.purge()
        assert "MAX_REPEAT" in capsys.readouterr().out  # re.DEBUG's dump, printed each time: never from the table
    table = codecache._read(str(tmp_path / f"regex-code.{sys.implementation.cache_tag}.marshal"))
    assert ("(unclosed", 0) not in table and ("a+", 0) in table and not [k for k in table if k[0] == "b+"]
    compiler = getattr(re, "_compiler", None) or re.sre_compile
    assert compiler.compile.__qualname__ == "compile"  # re's own compiler is back after the run
