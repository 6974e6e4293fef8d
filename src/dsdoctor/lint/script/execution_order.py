"""Execution order of a script's events: each entry point's body with calls to functions of the same file
followed (depth-limited), so ``main(): model = load(); args = TrainingArguments()`` reads as load-then-args."""

from __future__ import annotations

from typing import Dict, List, Tuple

from .dataflow import Event, Scope, Script

MAX_DEPTH = 6


def stream(script: Script, scope: Scope, depth: int = 0, stack: Tuple[int, ...] = ()) -> List[Event]:
    out: List[Event] = []
    for e in sorted((e for e in script.events if e.scope is scope), key=lambda e: e.seq):
        if e.kind == "call":
            fn = script.functions.get(e.name)
            if fn is not None and id(fn) not in stack and depth < MAX_DEPTH:
                out += stream(script, fn, depth + 1, stack + (id(fn),))
            continue
        out.append(e)
    return out


def entries(script: Script) -> List[List[Event]]:
    """One event stream per entry: the module body, and each function this file never calls."""
    called = {e.name for e in script.events if e.kind == "call"}
    roots: List[Scope] = [script.module_scope] if script.module_scope else []
    by_id: Dict[int, Scope] = {}
    for name, sc in script.functions.items():
        if name not in called and sc.parent is script.module_scope:
            by_id[id(sc)] = sc
    roots += list(by_id.values())
    return [stream(script, r, 0, (id(r),)) for r in roots]
