"""Execution order of a script's events: each entry point's body with calls to functions of the same file
followed (depth-limited), so ``main(): model = load(); args = TrainingArguments()`` reads as load-then-args."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

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


def rebound_before_load(c: Any, e: Event) -> bool:
    """Is ``_`` (``e`` binds it, and the scope binds it again: ``_`` alone keeps the object as any name does)
    bound again before the first load that follows ``e`` in its scope? ``_, _, _ = deepspeed.initialize(...)``
    after ``from_pretrained`` frees nothing the load needed (t-zero, aside136). Where no load follows in the scope
    (the model is built elsewhere), any other binding counts."""
    import libcst as cst

    pos = c.src.positions
    start = pos[e.stmt].end.line
    loads = [pos[x.call].start.line for x in stream(c.script, e.scope) if x.seq > e.seq and x.kind == "load"
             and x.call in pos]
    end = min(loads) if loads else None
    lines: List[int] = []

    class Binds(cst.CSTVisitor):
        def _name(self, target: Any) -> None:
            for n in [target] if isinstance(target, cst.Name) else \
                    [el.value for el in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else []:
                if isinstance(n, cst.Name) and n.value == "_" and n in pos:
                    lines.append(pos[n].start.line)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._name(node.target)

        def visit_For(self, node: cst.For) -> None:
            self._name(node.target)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
            return node is e.scope.node  # a nested function binds its own `_`

    e.scope.node.visit(Binds())
    return any(ln != pos[e.stmt].start.line and (ln > start if end is None else start < ln <= end) for ln in lines)
