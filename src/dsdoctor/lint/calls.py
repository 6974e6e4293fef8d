"""Which top-level functions of the files an entry script reaches it can call (call-based reach, by name).

Importing a module runs its module-level code, not its functions: a training script that star-imports a package
whose ``__init__`` defines an inference loader reaches the file but never runs the loader. From the files an entry
reaches (:mod:`.reach`), the code that runs is the module-level code of each (class bodies and methods included:
they run through objects; a non-entry file's ``if __name__ == "__main__":`` block left out), and, to a fixpoint, the
body of every top-level function whose name that code calls or names. Names are matched across files, not
resolved to one definition (conservative: a ``main()`` called anywhere keeps every ``main`` live).

A top-level function is

- ``called`` when running code calls it by name (``f(...)``, ``mod.f(...)``);
- ``named`` when running code only names it (a registry dict, a callback, ``getattr(m, "f")``, a decorator that
  may register it): the call cannot be resolved, so its findings stay, as ``info``;
- ``dead`` otherwise: nothing that runs can reach it, its findings are dropped.

A file that does not parse leaves all its functions ``called``.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .discover import _read

_IDENT = re.compile(r"^[A-Za-z_]\w*$")
Fn = Tuple[str, int, int, Set[str], Set[str], bool]  # name, first line, last line, calls, names, decorated


def _uses(nodes: Iterable[ast.AST]) -> Tuple[Set[str], Set[str]]:
    """(names called, other names and identifier strings) in ``nodes``."""
    called: Set[str] = set()
    named: Set[str] = set()
    for top in nodes:
        for n in ast.walk(top):
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Name):
                    called.add(f.id)
                elif isinstance(f, ast.Attribute):
                    called.add(f.attr)
            elif isinstance(n, ast.Name):
                named.add(n.id)
            elif isinstance(n, ast.Attribute):
                named.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and _IDENT.match(n.value):
                named.add(n.value)
    return called, named


def _is_main(node: ast.stmt) -> bool:
    t = node.test if isinstance(node, ast.If) else None
    return isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__"


def _is_all(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


def _read_file(path: str, entry: bool) -> Tuple[List[ast.AST], List[Fn]]:
    """(module-level statements that run on import, top-level functions) of a file (SyntaxError: it does not
    parse)."""
    tree = ast.parse(_read(path, 4 * 2**20))
    runs: List[ast.AST] = []
    fns: List[Fn] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            called, named = _uses(node.body)
            runs.extend(node.decorator_list)  # decorators run when the module is imported
            end = getattr(node, "end_lineno", None) or node.lineno
            fns.append((node.name, node.lineno, end, called, named, bool(node.decorator_list)))
        elif isinstance(node, (ast.Import, ast.ImportFrom)) or _is_all(node) or (not entry and _is_main(node)):
            continue
        else:
            runs.append(node)
    return runs, fns


Verdicts = Dict[str, Dict[str, Tuple[str, int, int]]]  # file -> function name -> (verdict, first line, last line)


Read = Optional[Tuple[List[Fn], Set[str], Set[str]]]  # a file's functions and what its running code calls / names


def _facts(path: str, entry: bool) -> Read:
    """(top-level functions, names its running code calls, other names it uses) of a file; None: it does not
    parse."""
    try:
        runs, defs = _read_file(path, entry)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return (defs, *_uses(runs))


def function_reach(files: Iterable[str], entry: str, cache: Optional[Dict[Tuple[str, bool], Read]] = None
                   ) -> Verdicts:
    """For each file an entry reaches that parses: its top-level functions' verdicts (called / named / dead).
    ``cache``: each file read once for all the entries of one lint run (the project model's)."""
    called: Set[str] = set()
    named: Set[str] = set()
    fns: Dict[str, List[Fn]] = {}
    cache = {} if cache is None else cache
    for f in sorted(set(files)):
        key = (f, f == entry)
        if key not in cache:
            cache[key] = _facts(f, f == entry)
        got = cache[key]
        if got is None:
            continue
        fns[f] = got[0]
        called |= got[1]
        named |= got[2]
    done: Set[Tuple[str, str]] = set()
    changed = True
    while changed:
        changed = False
        for f, defs in fns.items():
            for name, _, _, c, n, _ in defs:
                if (f, name) not in done and (name in called or name in named):
                    done.add((f, name))
                    called |= c
                    named |= n
                    changed = True
    out: Verdicts = {}
    for f, defs in fns.items():
        out[f] = {}
        for name, first, last, _, _, decorated in defs:
            verdict = "called" if name in called else "named" if name in named or decorated else "dead"
            out[f][name] = (verdict, first, last)
    return out
