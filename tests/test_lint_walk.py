"""lint/script/walk.py visits a libcst tree as libcst's own ``visit`` does (same hooks, same order) without copying
it, and skips only trivia (whitespace, operators, brackets), which hold nothing else. The script analysis built on
it finds the same events as with libcst's visit. Inputs: a synthetic source using most of the grammar, and
dsdoctor's own lint/script modules."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Tuple

import libcst as cst
import pytest

from dsdoctor.lint.script import evaluation
from dsdoctor.lint.script import walk as W

SRC = Path(__file__).resolve().parents[1] / "src" / "dsdoctor" / "lint" / "script"
SYNTHETIC = '''
# a comment
import os, a.b as c
from . import (d, e)
from .x import *
x = f"{a!r:>{w}} {b} {c:{d}} {e=}"
y = [i for i in a if i] + [{k: v for k, v in d.items()}] + list({i async for i in z})
z = a if b else c; w = not -~x ** 2 @ y >> 1 // 3 % 4
del a[1:2:3], b.c
assert x, "m"
print(*a, **b, sep="")
lambda x, *y, **z: (q := 1)
global g


@dec(1)
class C(B, metaclass=M):
    field: int = 1

    async def f(self, a, /, b=1, *c, d: int = 2, **e) -> "T":
        nonlocal_ = 1
        async with a as b, c:
            await x
        async for i in y:
            yield i
        return (yield from g())


def outer():
    v = 1

    def inner():
        nonlocal v
        v += 1
        return v
    return inner


try:
    pass
except (E, F) as e:
    raise X from e
else:
    pass
finally:
    while True:
        break
for i, (j, k) in enumerate(zip(a, b)):
    continue
with open("p") as fh, ctx():
    s = fh.read()[::-1]
if a:
    pass
elif b:
    pass
else:
    t: "str"
match p:
    case [1, *rest] if rest:
        pass
    case {"k": v, **kw}:
        pass
    case Point(x=0) | None:
        pass
    case _:
        pass
'''


class _Log(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.log: List[Tuple[str, int]] = []


def _recorder(classes: List[type]) -> type:
    body: dict = {}
    for c in classes:
        body[f"visit_{c.__name__}"] = lambda self, n: self.log.append(("visit", id(n)))
        body[f"leave_{c.__name__}"] = lambda self, n: self.log.append(("leave", id(n)))
    return type("Rec", (_Log,), body)


ALL = [c for c in vars(cst).values() if isinstance(c, type) and issubclass(c, cst.CSTNode)]


def _modules() -> List[cst.Module]:
    texts = [SYNTHETIC] + [p.read_text(encoding="utf-8") for p in sorted(SRC.glob("*.py"))]
    return [cst.parse_module(t) for t in texts]


@pytest.mark.parametrize("hooked", ["all", "no-trivia"])
def test_walk_calls_the_hooks_libcst_visit_calls(hooked: str) -> None:
    classes = ALL if hooked == "all" else [c for c in ALL if c not in W.TRIVIA]
    rec = _recorder(classes)
    for m in _modules():
        theirs, ours = rec(), rec()
        m.visit(theirs)
        W.walk(m, ours)
        assert ours.log == theirs.log


def test_trivia_holds_only_trivia() -> None:
    seen = set()
    for m in _modules():
        for n in W.descendants(m):
            if type(n) in W.TRIVIA:
                seen.add(type(n))
                assert all(type(d) in W.TRIVIA for d in W.descendants(n)), type(n).__name__
    assert {cst.SimpleWhitespace, cst.Comma, cst.LeftParen, cst.Newline} <= seen


def test_descendants_is_libcst_preorder() -> None:
    class Order(_Log):
        def on_visit(self, node: cst.CSTNode) -> bool:
            self.log.append(("visit", id(node)))
            return True

    for m in _modules():
        v = Order()
        m.visit(v)
        assert [i for _, i in v.log] == [id(n) for n in W.descendants(m)]


def _events(m: cst.Module) -> List[Any]:
    s = evaluation.analyse(m)
    return [(e.kind, e.name, e.seq, id(e.call), e.dead, e.zero_init, e.bound, e.bare, len(e.conds)) for e in s.events] \
        + [sorted(s.name_count.items()), sorted(s.imported.items()), s.has_main, sorted(s.flag_dests)]


def test_analysis_same_as_with_libcst_visit(monkeypatch: pytest.MonkeyPatch) -> None:
    for m in _modules():
        ours = _events(m)
        with monkeypatch.context() as mp:
            mp.setattr(evaluation, "walk", lambda node, visitor: node.visit(visitor))
            theirs = _events(m)
        assert ours == theirs
