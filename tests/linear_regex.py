"""A structural check that a regex cannot backtrack catastrophically on Python's ``re`` engine, read off the
parse tree ``re`` itself builds (``re._parser``, ``sre_parse`` before Python 3.11).

The rule (the one explain/causes/cause.py states for its signature patterns), conservative on purpose:

- an unbounded quantifier (``*``, ``+``, ``{n,}``) repeats one character class, never a group or a sequence;
- no quantifier is nested in an unbounded one, and no unbounded one is nested in any quantifier;
- an unbounded quantifier does not sit next to another quantifier whose class overlaps its own (``\\d+\\w{1,9}``);
- a pattern does not start with an unbounded quantifier (every start position of a search would rescan the run).

Bounded repeats of bounded repeats (``(?:\\d{1,12}, ){0,6}``) are allowed: their work per start position is a
constant. :func:`risks` returns what breaks the rule (empty: linear)."""

from __future__ import annotations

import importlib
import re
import sys
from typing import Any, FrozenSet, List, Optional, Tuple

# re's own parser: re._parser since Python 3.11 (sre_parse, deprecated there, before)
sre_c: Any = importlib.import_module("re._constants" if sys.version_info >= (3, 11) else "sre_constants")
sre_p: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")

REPEATS = {sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", sre_c.MAX_REPEAT)}
ONE_CHAR = {sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.IN, sre_c.ANY}
PROBE = [chr(c) for c in range(0x300)] + ["\u2028", "\u3000", "\u00e9", "\u4e2d", "\U0001f600"]
_CATEGORY = {v[1][0][1]: re.compile(k) for k, v in sre_p.CATEGORIES.items() if v[0] is sre_c.IN}
Item = Tuple[Any, Any]


def _member(item: Item, ch: str) -> bool:
    """Whether the one-character item ``item`` matches ``ch`` (case flags ignored)."""
    op, av = item
    if op is sre_c.LITERAL:
        return bool(ord(ch) == av)
    if op is sre_c.NOT_LITERAL:
        return bool(ord(ch) != av)
    if op is sre_c.ANY:
        return True  # as if DOTALL: the larger class is the conservative one
    negate = bool(av) and av[0][0] is sre_c.NEGATE
    hit = False
    for sop, sav in av[1:] if negate else av:
        if sop is sre_c.LITERAL:
            hit = ord(ch) == sav
        elif sop is sre_c.RANGE:
            hit = sav[0] <= ord(ch) <= sav[1]
        elif sop is sre_c.CATEGORY:
            rx = _CATEGORY.get(sav)
            hit = rx is None or bool(rx.match(ch))  # an unknown category: assume it matches
        else:
            hit = True  # anything else in a set: assume it matches
        if hit:
            break
    return hit != negate


def _chars(item: Item) -> Optional[FrozenSet[str]]:
    """The probe characters one repeat's (or one-character item's) class matches; None: not one class."""
    op, av = item
    if op in REPEATS:
        body = av[2]
        return _chars(body[0]) if len(body) == 1 and body[0][0] in ONE_CHAR else None
    if op in ONE_CHAR:
        return frozenset(ch for ch in PROBE if _member(item, ch))
    return None


def _unbounded(item: Item) -> bool:
    return item[0] in REPEATS and item[1][1] == sre_c.MAXREPEAT


def _walk(seq: List[Item], outer: Optional[bool], out: List[str], at_start: bool) -> None:
    """``outer``: None outside any quantifier, else whether the enclosing one is unbounded."""
    items = list(seq)
    for i, item in enumerate(items):
        op, av = item
        if op in REPEATS:
            lo, hi, body = av
            unbounded = hi == sre_c.MAXREPEAT
            if outer is not None and (unbounded or outer):
                out.append(f"quantifier {{{lo},{'' if unbounded else hi}}} nested in another (at item {i})")
            if unbounded:
                mine = _chars(item)
                if mine is None:
                    out.append(f"unbounded quantifier over a group or sequence (at item {i})")
                if at_start and i == 0:
                    out.append("the pattern starts with an unbounded quantifier")
                for j in (i - 1, i + 1):
                    if 0 <= j < len(items) and items[j][0] in REPEATS:
                        theirs = _chars(items[j])
                        if mine is None or theirs is None or mine & theirs:
                            out.append(f"unbounded quantifier next to an overlapping quantifier (items {i} and {j})")
            _walk(list(body), unbounded if outer is None else (outer or unbounded), out, False)
        elif op is sre_c.SUBPATTERN:
            _walk(list(av[-1]), outer, out, at_start and i == 0)
        elif op is sre_c.BRANCH:
            for branch in av[1]:
                _walk(list(branch), outer, out, at_start and i == 0)
        elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
            _walk(list(av[1]), outer, out, False)
        elif op is sre_c.GROUPREF_EXISTS:
            for branch in av[1:]:
                if branch is not None:
                    _walk(list(branch), outer, out, False)


def risks(pattern: str) -> List[str]:
    """What in ``pattern`` breaks the linear-time rule of this module (empty: nothing)."""
    out: List[str] = []
    _walk(list(sre_p.parse(pattern)), None, out, True)
    return out
