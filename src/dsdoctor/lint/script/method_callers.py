"""A method that runs only when an option is set: every call of it in the files the ZeRO-3 launches run
(``self.reload_full()``, ``wrapper.reload_full()``) sits in the body of an ``if`` on an option none of those launches
passes (``elif self.model_args.use_qlora: self.reload_full()``: LMFlow's reload of the base model for a QLoRA merge).
A finding inside it is then info: "only with --X" (:mod:`.callers` does the same for top-level functions).

Conservative: a dunder method, the name defined more than once in those files, used other than as an attribute
(a bare name, a string: ``getattr``, a registry), or a caller file that does not parse keeps the severity.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from ..discover import _read
from ..target import Target
from .callers import parsed
from .flags import is_open
from .flags_gating import gates_once, shown
from .walk import descendants


def method_flag(t: Target, module: Any, src: Any, line: int, cache: Dict[str, Any]) -> Optional[str]:
    """"only with --X: ..." where ``line`` of ``t`` is in a method of a top-level class every call of which is
    behind an option no ZeRO-3 launch running the callers passes (module doc); None otherwise."""
    for cls in module.body:
        if not isinstance(cls, cst.ClassDef) or not src.positions[cls].start.line <= line <= src.positions[cls].end.line:
            continue
        for fn in cls.body.body:
            if isinstance(fn, cst.FunctionDef) and src.positions[fn].start.line <= line <= src.positions[fn].end.line:
                name = fn.name.value
                if name.startswith("__"):
                    return None
                if "methods:" + name not in cache:
                    cache["methods:" + name] = _gated(t, src, name, cache)
                return cache["methods:" + name]  # type: ignore[no-any-return]
    return None


def _gated(t: Target, own: Any, name: str, cache: Dict[str, Any]) -> Optional[str]:
    path = os.path.normpath(t.path)
    word = re.compile(r"\b" + re.escape(name) + r"\b")
    gates: List[str] = []
    defs = 0
    for f in sorted({f for f, (zero3, _) in t.usage.launches.items() if zero3} | {path}):
        if f != path and not word.search(_read(f)):
            continue
        src = own if f == path else parsed(f, cache)
        passed = t.usage.zero3_flags.get(f)
        if src.module is None or passed is None:
            return None
        got = _calls(src, name, cache)
        if got is None:
            return None
        calls, n = got
        defs += n
        spans = gates_once(src, cache)
        for pos in calls:
            hit = [" or --".join(shown(x) for x in sorted(fl)) for start, end, fl in spans
                   if start <= pos < end and not any(is_open(x, passed) for x in fl)]
            if not hit:
                return None
            gates.append(hit[0])
    if defs != 1 or not gates:
        return None
    return f"only with --{gates[0]}: every call of .{name}() in the files its ZeRO-3 launches run is behind it, and " \
           "none passes it"


def _calls(src: Any, name: str, cache: Dict[str, Any]) -> Optional[Tuple[List[Tuple[int, int]], int]]:
    """(the positions of ``x.name`` in the module, how many methods or functions it defines so named); None where the
    name is used another way (a bare name, inside a string)."""
    uses = _index(src, cache)
    if name in uses.bare or any(name in s for s in uses.strings):
        return None
    at = [src.positions[n].start for n in uses.attrs.get(name, ())]  # positions only for a name asked
    return [(r.line, r.column) for r in at], uses.defs.get(name, 0)


@dataclass
class _Uses:
    """One walk of a module, kept for every method name asked: each attribute name -> its ``x.name`` nodes, each def
    name -> how many, the names used bare, the string texts."""

    attrs: Dict[str, List[Any]] = field(default_factory=dict)
    defs: Dict[str, int] = field(default_factory=dict)
    bare: Set[str] = field(default_factory=set)
    strings: List[str] = field(default_factory=list)


def _index(src: Any, cache: Dict[str, Any]) -> _Uses:
    key = "method_uses:" + src.path
    if key in cache:
        return cache[key]  # type: ignore[no-any-return]
    out = _Uses()
    seen = set()
    for n in descendants(src.module, trivia=False):
        if isinstance(n, cst.Attribute):
            seen.add(id(n.attr))
            out.attrs.setdefault(n.attr.value, []).append(n)
        elif isinstance(n, cst.FunctionDef):
            seen.add(id(n.name))
            out.defs[n.name.value] = out.defs.get(n.name.value, 0) + 1
        elif isinstance(n, cst.Name) and id(n) not in seen:
            out.bare.add(n.value)
        elif isinstance(n, (cst.SimpleString, cst.FormattedStringText)):
            out.strings.append(str(n.value))
    cache[key] = out
    return out
