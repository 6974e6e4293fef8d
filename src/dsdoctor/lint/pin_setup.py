"""Read the pins of a ``setup.py`` with :mod:`ast`, never executing it: ``install_requires`` / ``extras_require``
of ``setup(...)`` where they are literal lists, module-level names bound to them (or filled by ``extras[k] = ...``
lines), or entries of a Transformers-style ``_deps = ["deepspeed==0.16.8", ...]`` table looked up by name
(``deps["deepspeed"]``, ``deps_list("torch")``)."""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from packaging.requirements import InvalidRequirement, Requirement

from .pin_files import Pin, read_text, requirement


def _strings(node: Optional[ast.AST], names: Dict[str, List[ast.AST]], table: Dict[str, Tuple[str, int]],
             seen: Set[str]) -> Iterator[Tuple[str, int]]:
    """The string literals of a list / tuple (or a module-level name bound to one, or filled by ``name[k] = ...``
    lines; a dict's values), and, through ``table`` (:func:`_dep_table`), ``deps["pkg"]`` / ``deps_list("pkg")``.
    ``seen``: the names already expanded (each is read once)."""
    if isinstance(node, ast.Name) and node.id in names:
        if node.id in seen:
            return
        seen.add(node.id)
        for bound in names[node.id]:
            yield from _strings(bound, names, table, seen)
        return
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for e in node.elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                yield e.value, e.lineno
            else:
                yield from _strings(e, names, table, seen)
    elif isinstance(node, ast.Dict):
        for v in node.values:
            yield from _strings(v, names, table, seen)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _strings(node.left, names, table, seen)
        yield from _strings(node.right, names, table, seen)
    elif table and isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value in table:
            yield table[key.value]  # deps["deepspeed"]
        elif node.value.id in names:  # extras["dev"]
            yield from _strings(node.value, names, table, seen)
    elif table and isinstance(node, ast.Call):  # deps_list("torch", "deepspeed")
        for a in node.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value in table:
                yield table[a.value]


def _dep_table(names: Dict[str, List[ast.AST]]) -> Dict[str, Tuple[str, int]]:
    """The requirement table of a Transformers-style setup.py: a module-level ``_deps = ["deepspeed==0.16.8",
    ...]`` list of literal requirements, by the name its entries are looked up with (``deps["deepspeed"]``):
    the requirement's name as written."""
    out: Dict[str, Tuple[str, int]] = {}
    for bound in names.get("_deps", []):
        if not isinstance(bound, (ast.List, ast.Tuple)):
            return {}
        for e in bound.elts:
            if not (isinstance(e, ast.Constant) and isinstance(e.value, str)):
                return {}
            try:
                out[Requirement(e.value).name] = (e.value, e.lineno)
            except InvalidRequirement:
                continue
    return out


def _module_names(tree: ast.Module) -> Dict[str, List[ast.AST]]:
    """Module-level ``name = value`` bindings, and the values ``name[key] = value`` / ``name += value`` add."""
    names: Dict[str, List[ast.AST]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            t = stmt.targets[0]
            if isinstance(t, ast.Name):
                names[t.id] = [stmt.value]
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in names:
                names[t.value.id].append(stmt.value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id in names:
            names[stmt.target.id].append(stmt.value)
    return names


def setup_py(path: str, shown: str) -> List[Pin]:
    """``install_requires`` / ``extras_require`` of ``setup(...)`` where they are literals (or module-level names
    bound to literals, or entries of a literal ``_deps`` requirement list looked up by name); nothing is
    executed."""
    try:
        tree = ast.parse(read_text(path))
    except (SyntaxError, ValueError, RecursionError):
        return []
    names = _module_names(tree)
    table = _dep_table(names)
    out: List[Pin] = []
    seen: Set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        fname = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if fname != "setup":
            continue
        for kw in node.keywords:
            if kw.arg in ("install_requires", "extras_require"):
                out += [p for s, n in _strings(kw.value, names, table, seen) if (p := requirement(s, shown, n))]
    return out
