"""A function that runs only when its callers' option is set: every call sits under an option gate.

A finding in a top-level function (or class) of a module that a ZeRO-3 launch imports by name runs only when the
function is called. Where every use of its name, in every project file a ZeRO-3 launch reaches (the module itself
included), sits in the body of an ``if`` on an option that none of the ZeRO-3 launches reaching that file passes
(``if cfg.do_merge_lora and ...: merge_lora(cfg)``, :mod:`.flags`), the finding is info: "only with --X".

Conservative: a name bound under another name (``import merge_lora as m``), named in a string (``getattr``, a
registry; a docstring is none), used outside such a gate, a caller file that does not parse, or a module imported whole (any of its
names may be used) keeps the severity.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from ..discover import _read
from ..target import Target
from .flags import Gates, is_open, option_gates, shown
from .source import Source, parse


def caller_flag(t: Target, module: Any, src: Any, line: int, cache: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """(option, function) when the top-level function or class holding ``line`` of ``t`` is used only under
    gates on options its ZeRO-3 launches do not pass (module doc); None otherwise."""
    path = os.path.normpath(t.path)
    taken = t.usage.imported.get(path)
    if not taken:
        return None  # not imported by a ZeRO-3 launch, or imported whole (any name may be used)
    tops = [s for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))]
    hold = next((s for s in tops if src.positions[s].start.line <= line <= src.positions[s].end.line), None)
    if hold is None or hold.name.value not in taken or sum(s.name.value == hold.name.value for s in tops) != 1:
        return None
    name = hold.name.value
    key = "callers:" + name
    if key not in cache:
        cache[key] = _callers(t, path, src, hold, name)
    got = cache[key]
    return (got, name) if got is not None else None


def _callers(t: Target, path: str, own: Any, hold: Any, name: str) -> Optional[str]:
    word = re.compile(r"\b" + re.escape(name) + r"\b")
    files = sorted({f for f, (zero3, _) in t.usage.launches.items() if zero3} | {path})
    found: Optional[str] = None
    for f in files:
        if f == path:
            src = own
        else:
            text = _read(f)
            if not word.search(text):
                continue
            src = parse(Source(f, text, "utf-8"))
            if src.module is None:
                return None
        passed = t.usage.zero3_flags.get(f)
        if passed is None:
            return None
        got = _uses_gated(src, name, passed, id(hold.name) if f == path else None)
        if got == "":
            return None
        found = found or got
    return found


def _uses_gated(src: Any, name: str, passed: Any, skip: Optional[int]) -> Optional[str]:
    """The option gating every use of ``name`` in ``src`` (None: no use); "" when a use is not so gated, the name
    is imported under another name, or a string names it."""
    uses: List[Tuple[int, int]] = []
    bad = False
    word = re.compile(r"\b" + re.escape(name) + r"\b")

    class Visit(cst.CSTVisitor):
        def visit_ImportAlias(self, node: Any) -> bool:
            nonlocal bad
            if node.asname is not None and word.search(cst.Module([]).code_for_node(node.name)):
                bad = True
            return False  # an import line is no use

        def visit_Expr(self, node: Any) -> bool:
            return not isinstance(node.value, (cst.SimpleString, cst.ConcatenatedString))  # a docstring: no use

        def visit_Arg(self, node: Any) -> None:
            if node.keyword is not None:
                keywords.add(id(node.keyword))

        def visit_SimpleString(self, node: Any) -> None:
            nonlocal bad
            bad = bad or bool(word.search(node.value))

        def visit_Name(self, node: Any) -> None:
            if node.value == name and id(node) != skip and id(node) not in keywords:
                r = src.positions[node]
                uses.append((r.start.line, r.start.column))

    keywords: Set[int] = set()
    src.module.visit(Visit())
    if bad:
        return ""
    gates: Gates = option_gates(src)
    found: Optional[str] = None
    for pos in uses:
        hit = [" or --".join(shown(x) for x in sorted(f)) for start, end, f in gates
               if start <= pos < end and not any(is_open(x, passed) for x in f)]
        if not hit:
            return ""
        found = found or hit[0]
    return found
