"""dsdoctor.codecache: dataclasses' generated methods compiled once across runs, with the same behaviour."""

from __future__ import annotations

import dataclasses
import os
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
