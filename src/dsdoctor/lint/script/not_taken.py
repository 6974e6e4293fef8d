"""Code of a module a ZeRO-3 launch imports by name that the launch never runs: its events are dead.

A launch runs the top-level functions it takes from the module (``from m import f``; lint/called.py lists them,
with what they call) and whatever the module's own top level uses. A top-level function it does not take, and that
nothing left running in the file names, never runs there: an inference helper beside the one function the training
script imports; ``load_model()`` used only by ``load_model_and_tokenizer()``, which nothing uses either (the uses
of a function inside other such functions do not keep it, nor its own recursive calls). Where the module runs only
as an import (``main_dead``), the uses in its ``if __name__ == "__main__":`` block do not count either, and that
block's own events are dead (:func:`main_block_dead`). Methods are kept: they run through objects, and so are the
uses inside classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Set

import libcst as cst

from .name_uses import is_main

if TYPE_CHECKING:
    from .dataflow import Script


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.count: Dict[str, int] = {}

    def visit_Name(self, node: cst.Name) -> None:
        self.count[node.value] = self.count.get(node.value, 0) + 1


def _counts(node: Any) -> Dict[str, int]:
    v = _Names()
    node.visit(v)
    return v.count


def _unused(script: "Script", taken: Set[str], module: Any, main_dead: bool) -> Set[str]:
    """The top-level functions (defined once) the launch does not take and that nothing running in the file names."""
    defs = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    once = {s.name.value for s in defs if sum(d.name.value == s.name.value for d in defs) == 1}
    inside = {s.name.value: _counts(s) for s in defs if s.name.value in once and s.name.value not in taken}
    in_main: Dict[str, int] = {}
    if main_dead:
        for st in module.body:
            if isinstance(st, cst.If) and is_main(st.test):
                for k, n in _counts(st.body).items():
                    in_main[k] = in_main.get(k, 0) + n
    dead = set(inside)
    changed = True
    while changed:  # a use inside a dead function keeps nothing alive; one inside a live one does
        changed = False
        for name in sorted(dead):
            inner = sum(inside[g].get(name, 0) for g in dead) - 1  # its own name, in its def, counts once
            if script.name_count.get(name, 0) - in_main.get(name, 0) - inner > 1:
                dead.discard(name)
                changed = True
    return dead


def not_taken(script: "Script", taken: Set[str], module: Any, main_dead: bool) -> None:
    """Mark dead the events in the top-level functions of ``module`` that a launch taking ``taken`` never runs
    (module doc)."""
    dead = _unused(script, taken, module, main_dead)
    if not dead:
        return
    for e in script.events:
        fn = e.scope
        while fn.parent is not None and fn.parent is not script.module_scope:
            fn = fn.parent
        if fn.parent is None or id(fn.node) in script.methods:
            continue
        if getattr(getattr(fn.node, "name", None), "value", None) in dead:
            e.dead = True


class _Calls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.ids: Set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        self.ids.add(id(node))


def main_block_dead(script: "Script", module: Any) -> None:
    """Events in the module's ``if __name__ == "__main__":`` block (a smoke test of a model file) are dead, and its
    calls pass nothing to the functions they call (``Actor(path, device_map="cuda")`` there sets no value of
    ``Actor``'s ``device_map`` in a launch that imports the module)."""
    calls = _Calls()
    for st in module.body:
        if isinstance(st, cst.If) and is_main(st.test):
            st.body.visit(calls)
    script.unrun_calls |= calls.ids
    for e in script.events:
        if e.scope is script.module_scope and any(body and is_main(test) for test, body in e.conds):
            e.dead = True
