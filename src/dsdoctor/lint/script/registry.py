"""A class or function listed in a registry that the run indexes with an option: ``METHODS = {"lora": Lora,
"o-lora": OLora}`` and ``METHODS[args.method](...)``. Only the entry whose key the launch passes runs.

A use of a name as the value of a string-keyed entry of a dict literal bound to a module-level name (``D``) is
gated by ``--X K`` (``X=K``), where every other use of ``D`` in the files the ZeRO-3 launches run is ``D[args.X]``
(one option ``X``, the same everywhere), a membership test (``args.X in D``, ``D.keys()``) or its import; any
other use (``D.items()``, ``D[name]``, passing ``D`` on) may reach every entry, and no gate holds. Read by
:mod:`.callers`: where every use of the name is gated so and no launch passes ``--X K``, the finding is info.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from ..entry_options import given
from .flags import options_namespace

Entry = Tuple[Tuple[int, int], str, str]  # (line, column) of the use, the registry's name, the entry's key


def entries(module: Any, positions: Any, name: str) -> List[Entry]:
    """The uses of ``name`` as a value of a string-keyed entry of a dict literal bound at module level to a name."""
    out: List[Entry] = []
    for stmt in module.body:
        inner = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not isinstance(inner, (cst.Assign, cst.AnnAssign)) or not isinstance(inner.value, cst.Dict):
            continue
        targets = [t.target for t in inner.targets] if isinstance(inner, cst.Assign) else [inner.target]
        if len(targets) != 1 or not isinstance(targets[0], cst.Name):
            continue
        for el in inner.value.elements:
            if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString) and \
                    isinstance(el.value, cst.Name) and el.value.value == name:
                start = positions[el.value].start
                out.append(((start.line, start.column), targets[0].value, str(el.key.evaluated_value)))
    return out


def option(srcs: List[Any], registry: str) -> Optional[Tuple[str, Set[str]]]:
    """The option ``X`` that every use of ``registry`` in ``srcs`` (parsed files) indexes it with, and the files
    (paths) where it does; None where a use may reach any entry."""
    found: Set[str] = set()
    where: Set[str] = set()
    for src in srcs:
        got = _indexes(src.module, registry)
        if got is None:
            return None
        if got:
            where.add(src.path)
        found |= got
    return (found.pop(), where) if len(found) == 1 else None


def _indexes(module: Any, registry: str) -> Optional[Set[str]]:
    """The options ``registry`` is indexed with in ``module``; None at a use that is none of the harmless ones."""
    options: Set[str] = set()
    ok: Set[int] = set()
    bad = False

    class Visit(cst.CSTVisitor):
        def visit_ImportAlias(self, node: Any) -> bool:
            nonlocal bad
            bad = bad or node.asname is not None and cst.Module([]).code_for_node(node.name).endswith(registry)
            return False

        def visit_Assign(self, node: Any) -> None:  # its own binding
            if isinstance(node.value, cst.Dict):
                ok.update(id(t.target) for t in node.targets)

        def visit_Subscript(self, node: Any) -> None:
            nonlocal bad
            if isinstance(node.value, cst.Name) and node.value.value == registry:
                ok.add(id(node.value))
                index = node.slice[0].slice.value if len(node.slice) == 1 and \
                    isinstance(node.slice[0].slice, cst.Index) else None
                if isinstance(index, cst.Attribute) and options_namespace(index.value):
                    options.add(index.attr.value)
                else:
                    bad = True

        def visit_Attribute(self, node: Any) -> None:  # ``D.keys()``
            if isinstance(node.value, cst.Name) and node.value.value == registry and node.attr.value == "keys":
                ok.add(id(node.value))

        def visit_Comparison(self, node: Any) -> None:  # ``args.x in D``, ``args.x not in D.keys()``
            for c in node.comparisons:
                if isinstance(c.operator, (cst.In, cst.NotIn)) and isinstance(c.comparator, cst.Name):
                    ok.add(id(c.comparator))

        def visit_Name(self, node: Any) -> None:
            nonlocal bad
            if node.value == registry and id(node) not in ok:
                bad = True

    module.visit(Visit())
    return None if bad else options


def open_for(flag: str, key: str, passed: Set[str], defaults: Optional[Dict[str, str]]) -> bool:
    """Does a launch passing ``passed`` select the entry ``key`` of a registry indexed by ``--flag`` (an option
    left out selects its declared default; none declared: any)?"""
    if flag not in passed:
        default = (defaults or {}).get(flag)
        return default is None or default == key
    values = given(passed, flag) - {""}
    return not values or key in values
