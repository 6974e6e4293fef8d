"""Which option gate holds a finding (:mod:`.flags` builds the gates): the ``if`` bodies and arguments set only with
an option none of the file's ZeRO-3 launches passes, and the top-level functions or classes the file uses only
inside such gates."""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Set

import libcst as cst

from ..entry_options import EVERY
from .flags import _EOL, Gates, Pos, is_open, option_gates


def def_gates(src: Any, gates: "Gates", taken: Optional[Set[str]]) -> "Gates":
    """(first line, last line, options) of every top-level function or class that the file names only inside
    option gates (``if model_args.use_lora: trainer.add_callback(SavePeftModelCallback)``): its code runs only with
    one of those options. ``taken``: the names other modules of the launch take from this file (those may run
    without the option; None: any name, so no function is gated so)."""
    if taken is None:
        return []
    refs: Dict[str, List[Pos]] = {}
    tops = {stmt.name.value: stmt for stmt in src.module.body if isinstance(stmt, (cst.FunctionDef, cst.ClassDef))}
    skip = {id(t.name) for t in tops.values()}  # the definitions' own names, attributes, keywords: no uses
    for node in src.positions:
        if isinstance(node, cst.Attribute):
            skip.add(id(node.attr))
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            skip.add(id(node.keyword))
    for node, r in src.positions.items():
        if isinstance(node, cst.Name) and node.value in tops and id(node) not in skip:
            refs.setdefault(node.value, []).append((r.start.line, r.start.column))
    out: Gates = []
    for name, where in refs.items():
        if name in taken:
            continue
        flags: Set[str] = set()
        for pos in where:
            hold = next((f for start, end, f in gates if start <= pos < end), None)
            if hold is None:
                break
            flags |= hold
        else:
            r = src.positions[tops[name]]
            out.append(((r.start.line, 0), (r.end.line, _EOL), flags))
    return out


def gating_flag(src: Any, where: List[Pos], passed: Set[str], cache: Dict[str, Gates],
                kind: str = "gates", taken: Optional[Set[str]] = None,
                defaults: Optional[Dict[str, str]] = None) -> Optional[str]:
    """The option (none of ``passed``) whose ``if`` body or argument (``kind`` "gates"), or whose gates hold every
    use of the top-level function or class (``kind`` "defs", :func:`def_gates`), holds every one of ``where``;
    None when none does. Several options of one gate read "a or --b"."""
    gates = gates_once(src, cache)
    if kind == "defs" and "defs" not in cache:
        cache["defs"] = def_gates(src, gates, taken)
    found: Optional[str] = None
    for pos in where:
        hit = [" or --".join(shown(x) for x in sorted(f)) for start, end, f in (gates if kind == "gates" else cache[kind])
               if start <= pos < end and not any(is_open(x, passed, defaults) for x in f)]
        if not hit:
            return None
        found = found or hit[0]
    return found


def gates_once(src: Any, cache: Dict[str, Any]) -> Gates:
    """:func:`.flags.option_gates` of the parsed ``src``, read once per linted file (for the file itself and for
    the other project files :mod:`.callers` reads)."""
    key = "option_gates:" + src.path
    if key not in cache:
        cache[key] = option_gates(src)
    return cache[key]  # type: ignore[no-any-return]


def shown(flag: str) -> str:
    """``bits=4|8`` as a reader writes the option: ``bits 4/8``."""
    if flag.startswith("-"):
        return f"{flag[1:]} left out"
    if "!=" in flag:
        name, _, lit = flag.partition("!=")
        return f"{name} other than {lit} (its default)"
    name, eq, allowed = flag.partition("=")
    return name + (" " + "/".join(allowed.split("|")) if eq else "")


def apart(src: Any, node: Pos, sources: List[Pos], launches: List[FrozenSet[str]], cache: Dict[str, Gates],
          defaults: Optional[Dict[str, str]] = None) -> Optional[str]:
    """A finding behind several options, read launch by launch: ``--a and --b together`` where every launch leaves
    one of the finding's gates closed though together they open all. Its own line's gates (nested ``if``s), and for a
    finding that needs the values it names too (flags.BY_SOURCE: ``sources``), theirs: the LoRA recipe passes
    ``--use_lora``, the full fine-tuning one ``--gradient_checkpointing``. None where some launch opens them all, or
    the line (or the values) has no gate, or no launch is known."""
    if not launches or gating_flag(src, [node], set(), cache, defaults=defaults) is None or \
            (sources and gating_flag(src, sources, set(), cache, defaults=defaults) is None):
        return None
    closed: Set[str] = set()
    for flags in launches:
        passed = set(flags) | {EVERY + x for x in flags if "=" not in x}  # one launch: it is every launch
        got = gating_flag(src, [node], passed, cache, defaults=defaults) or \
            (gating_flag(src, sources, passed, cache, defaults=defaults) if sources else None)
        if got is None:
            return None
        closed.add(got)
    return " and --".join(sorted(closed)) + (" together" if len(closed) > 1 else "")
