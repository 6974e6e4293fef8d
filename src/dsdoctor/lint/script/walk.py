"""Visit a libcst tree without rebuilding it: the same ``visit_<Node>`` / ``leave_<Node>`` calls, in the same order,
as ``node.visit(visitor)`` makes for a read-only :class:`libcst.CSTVisitor`.

libcst's ``visit`` goes through ``_visit_and_replace_children``, which constructs (and validates) a new copy of
every node it passes, also for a visitor that changes nothing; that copy was most of the time the script analysis
took. Here each node class's child fields are read once, in the order libcst visits them (recorded from
``on_visit_attribute``, which libcst calls before each field it visits), and then read directly. A field libcst
visits only when it is set (an f-string's ``format_spec``) is visited last, as libcst does.

Trivia (whitespace, comments, newlines, operators, commas, brackets: the classes of libcst's ``op`` and
``whitespace`` modules and the bracket tokens, which hold nothing but trivia) are not entered when the visitor has
no hook for any trivia class: its hooks see the same calls. Visitors with per-field hooks (``visit_Call_func``,
``on_visit_attribute``) are visited by libcst itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Tuple

import libcst as cst

_ORDER: Dict[type, Tuple[str, ...]] = {}
_TRIVIA_MODULES = ("libcst._nodes.op", "libcst._nodes.whitespace")
_BRACKETS = ("LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket", "LeftCurlyBrace",
             "RightCurlyBrace")
TRIVIA: FrozenSet[type] = frozenset(
    c for n, c in vars(cst).items() if isinstance(c, type) and issubclass(c, cst.CSTNode)
    and (c.__module__ in _TRIVIA_MODULES or n in _BRACKETS))
NODE, SEQ, SKIP = 1, 2, 3  # all true: `kinds.get(t) or _kind(t)` looks up once
_KINDS: Tuple[Dict[type, int], Dict[type, int]] = ({}, {})  # [trivia visited] type -> NODE / SEQ / SKIP


class _Fields(cst.CSTVisitor):
    """Records the fields libcst visits, without descending into them."""

    def __init__(self) -> None:
        super().__init__()
        self.names: List[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        return None

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if attribute not in self.names:
            self.names.append(attribute)


def _fields(node: cst.CSTNode) -> Tuple[str, ...]:
    cls = type(node)
    got = _ORDER.get(cls)
    if got is None:
        rec = _Fields()
        node._visit_and_replace_children(rec)  # visits no grandchild: on_visit says no
        rest = [f.name for f in dataclasses.fields(node) if f.name not in rec.names]
        got = _ORDER[cls] = (*rec.names, *rest)
    return got


def _kind(t: type, trivia: bool) -> int:
    """NODE (visit it), SEQ (a sequence of nodes) or SKIP (a value, or trivia when ``trivia`` is False)."""
    kinds = _KINDS[trivia]
    k = kinds.get(t)
    if k is None:
        k = NODE if issubclass(t, cst.CSTNode) else SEQ if t in (tuple, list) else SKIP
        k = kinds[t] = SKIP if k == NODE and not trivia and t in TRIVIA else k
    return k


def children(node: cst.CSTNode, trivia: bool = True) -> List[cst.CSTNode]:
    """The node's children in libcst's visiting order (``trivia=False``: without whitespace, operators, commas
    and brackets)."""
    kinds = _KINDS[trivia]
    out: List[cst.CSTNode] = []
    for f in _ORDER.get(type(node)) or _fields(node):
        child = getattr(node, f)
        k = kinds.get(type(child)) or _kind(type(child), trivia)
        if k == NODE:
            out.append(child)
        elif k == SEQ:
            for c in child:
                if (kinds.get(type(c)) or _kind(type(c), trivia)) == NODE:
                    out.append(c)
    return out


def descendants(node: cst.CSTNode, trivia: bool = True) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it, in the order libcst visits them (pre-order; ``trivia=False``: trivia
    left out)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(reversed(children(n, trivia)))


def _own(cls: type, name: str) -> bool:
    """Does the visitor class define ``name`` itself (not libcst's no-op stub)?"""
    return getattr(cls, name, None) is not getattr(cst.CSTVisitor, name, None)


_PLAIN: Dict[type, Tuple[bool, bool]] = {}


def _shape(cls: type) -> Tuple[bool, bool]:
    """(the visitor has only ``visit_<Node>`` / ``leave_<Node>`` hooks, one of them is for a trivia class)."""
    got = _PLAIN.get(cls)
    if got is None:
        plain = not any(_own(cls, n) for n in ("on_visit", "on_leave", "on_visit_attribute", "on_leave_attribute")) \
            and not any(n.startswith(("visit_", "leave_")) and n.count("_") >= 2 and _own(cls, n) for n in dir(cls))
        wants_trivia = any(_own(cls, p + c.__name__) for c in TRIVIA for p in ("visit_", "leave_"))
        got = _PLAIN[cls] = (plain, wants_trivia)
    return got


Hook = Optional[Callable[[Any], Any]]


def _hook(visitor: cst.CSTVisitor, prefix: str, node: cst.CSTNode) -> Hook:
    """The visitor's own ``visit_<Node>`` / ``leave_<Node>`` for the node's class (None: libcst's no-op)."""
    name = prefix + type(node).__name__
    hook: Hook = getattr(visitor, name) if _own(type(visitor), name) else None
    return hook


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """``node.visit(visitor)`` for a :class:`libcst.CSTVisitor`, without copying the tree."""
    plain, trivia = _shape(type(visitor))
    if not plain:
        node.visit(visitor)
        return
    hooks: Dict[type, Tuple[Hook, Hook]] = {}

    def go(n: cst.CSTNode) -> None:
        h = hooks.get(type(n))
        if h is None:
            h = hooks[type(n)] = (_hook(visitor, "visit_", n), _hook(visitor, "leave_", n))
        if h[0] is None or h[0](n) is not False:
            for c in children(n, trivia):
                go(c)
        if h[1] is not None:
            h[1](n)

    go(node)
