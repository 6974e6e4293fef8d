"""Which top-level functions of the files an entry script reaches it can call (call-based reach, by name).

Importing a module runs its module-level code, not its functions: a training script that star-imports a package
whose ``__init__`` defines an inference loader reaches the file but never runs the loader. From the files an entry
reaches (:mod:`.reach`), the code that runs is the module-level code of each (class bodies and methods included:
they run through objects; a non-entry file's ``if __name__ == "__main__":`` block left out), and, to a fixpoint, the
body of every top-level function whose name that code calls or names. A use is tied to one file's function where
the file's imports say which (``io.load()`` after ``from pkg import io``, ``f()`` after ``from pkg.m import f`` or
with ``f`` defined beside it: ``FILE::f``); other uses match the name in every file (conservative: a ``main()``
called through a star import keeps every ``main`` live). Uses through another package's names (``json.load()``,
``load`` of ``from json import load``) are none.

A top-level function is

- ``called`` when running code calls it by name (``f(...)``, ``mod.f(...)``);
- ``named`` when running code only names it (a registry dict, a callback, ``getattr(m, "f")``, a decorator that
  may register it), or calls it only as an object's attribute (``obj.f()``: a method, unless a module is kept in a
  variable), or only from such functions: the call cannot be resolved, so its findings stay, as ``info``;
- ``dead`` otherwise: nothing that runs can reach it, its findings are dropped.

A file that does not parse leaves all its functions ``called``.
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

from .discover import _read

_IDENT = re.compile(r"^[A-Za-z_]\w*$")
Fn = Tuple[str, int, int, Set[str], Set[str], bool, Set[str]]  # name, lines, calls, names, decorated, weak uses


def _root(node: ast.AST) -> Optional[str]:
    """The name an attribute chain starts from (``a`` of ``a.b.c``); None: a call result, subscript, literal."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


Uses = Tuple[Set[str], Set[str], Set[str]]  # names called, other names, attributes called on objects ("weak")
Resolver = Callable[[str, int, str, List[str]], Dict[str, Optional[Set[str]]]]  # lint/reach.py _resolve


class Binds:
    """What the names of one file stand for: ``ext``, bound only by imports of other packages; ``mods``, bound by
    imports of the project (-> the module file, None when not one file); ``taken``, functions taken by name
    (``from m import f`` -> m's file); ``local``, the file's own top-level functions."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.ext: Set[str] = set()
        self.mods: Dict[str, Optional[str]] = {}
        self.taken: Dict[str, Optional[str]] = {}
        self.local: Set[str] = set()

    def attr(self, node: ast.Attribute) -> Optional[str]:
        """The use an attribute stands for: ``FILE::name``, ``name``, ``~name`` (weak: on an object) or None (on
        another package's module)."""
        root = _root(node)
        if root is not None and root in self.ext:
            return None
        if root is not None and root in self.taken:  # a name taken from a project module may be a module too
            return node.attr
        if root is None or root not in self.mods:
            return "~" + node.attr
        mod = self.mods[root]
        return f"{mod}::{node.attr}" if mod is not None and isinstance(node.value, ast.Name) else node.attr

    def name(self, name: str) -> Optional[str]:
        """The use a bare name stands for (as :meth:`attr`)."""
        if name in self.ext:
            return None
        if name in self.taken:
            src = self.taken[name]
            return name if src is None else f"{src}::{name}"
        if name in self.local and name not in self.mods:
            return f"{self.path}::{name}"
        return name


def _keys(n: ast.AST) -> List[ast.AST]:
    """The strings that name a key, not a function: a dict literal's keys, the operands of a comparison
    (``"load" in d``), the index of a mapping (``d["load"]``; ``globals()["f"]``, an index of a call's result, may
    name one)."""
    if isinstance(n, ast.Dict):
        return [k for k in n.keys if k is not None]
    if isinstance(n, ast.Compare):
        return [n.left, *n.comparators]
    if isinstance(n, ast.Subscript) and not isinstance(n.value, ast.Call):
        return [n.slice]
    return []


def _uses(nodes: Iterable[ast.AST], binds: Optional[Binds] = None) -> Uses:
    """(uses called, other uses and identifier strings, attributes called or named on objects) in ``nodes``: each a
    name, or ``FILE::name`` where ``binds`` (the file's imports) tie it to one file's function."""
    called: Set[str] = set()
    named: Set[str] = set()
    weak: Set[str] = set()

    def add(use: Optional[str], into: Set[str]) -> None:
        if use is not None:
            (weak if use.startswith("~") else into).add(use.lstrip("~"))

    keys = {id(k) for top in nodes for n in ast.walk(top) for k in _keys(n)}
    for top in nodes:
        for n in ast.walk(top):
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Name):
                    add(f.id if binds is None else binds.name(f.id), called)
                elif isinstance(f, ast.Attribute):
                    add(f.attr if binds is None else binds.attr(f), called)
            elif isinstance(n, ast.Name):
                add(n.id if binds is None else binds.name(n.id), named)
            elif isinstance(n, ast.Attribute):
                add(n.attr if binds is None else binds.attr(n), named)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and _IDENT.match(n.value) and \
                    (binds is None or id(n) not in keys):
                named.add(n.value)
    return called, named - called, weak - called - named


def _one(files: Iterable[str]) -> Optional[str]:
    got = set(files)
    return got.pop() if len(got) == 1 else None


def _bind(b: Binds, other: Set[str], node: ast.AST, resolves: Resolver) -> None:
    """Record what one import statement (or other binding) of the file binds."""
    if isinstance(node, ast.Import):
        for a in node.names:
            bound = a.asname or a.name.split(".")[0]
            got = resolves(b.path, 0, a.name, [])
            if not got:
                b.ext.add(bound)
                continue
            mod = _one(f for f, v in got.items() if v is None) if a.asname or "." not in a.name else None
            b.mods[bound] = mod if b.mods.get(bound, mod) == mod else None
    elif isinstance(node, ast.ImportFrom):
        for a in node.names:
            if a.name == "*":
                continue
            bound = a.asname or a.name
            got = resolves(b.path, node.level, node.module or "", [a.name])
            if not got:
                b.ext.add(bound)
            elif any(v and a.name in v for v in got.values()):
                src = _one(f for f, v in got.items() if v and a.name in v)
                b.taken[bound] = src if b.taken.get(bound, src) == src else None
            else:
                mod = _one(f for f, v in got.items() if v is None)
                b.mods[bound] = mod if b.mods.get(bound, mod) == mod else None
    elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        other.add(node.id)
    elif isinstance(node, ast.arg):
        other.add(node.arg)


def _binds(path: str, tree: ast.Module, resolves: Optional[Resolver]) -> Optional[Binds]:
    """The names the file's imports bind and where they lead (``resolves``: None, nothing known: every use is a
    bare name, as before)."""
    if resolves is None:
        return None
    b = Binds(path)
    other: Set[str] = set()
    tops = {id(n): n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and id(n) not in tops:
            other.add(n.name)  # a nested function, a class
        _bind(b, other, n, resolves)
    b.ext -= set(b.mods) | set(b.taken) | other | set(tops.values())  # also bound otherwise: may be the project's
    b.local = {t for t in tops.values() if t not in other and t not in b.taken and t not in b.mods}
    for name in set(b.mods) | set(b.taken):
        if name in other:  # also bound by an assignment, a def, a parameter: not tied to the import
            b.mods.pop(name, None)
            b.taken.pop(name, None)
    return b


def _is_main(node: ast.stmt) -> bool:
    t = node.test if isinstance(node, ast.If) else None
    return isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__"


def _is_all(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


def _read_file(path: str, entry: bool, resolves: Optional[Resolver] = None
               ) -> Tuple[List[ast.AST], List[Fn], Optional[Binds]]:
    """(module-level statements that run on import, top-level functions, import bindings) of a file (SyntaxError:
    it does not parse)."""
    tree = ast.parse(_read(path, 4 * 2**20))
    binds = _binds(path, tree, resolves)
    runs: List[ast.AST] = []
    fns: List[Fn] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            called, named, weak = _uses(node.body, binds)
            runs.extend(node.decorator_list)  # decorators run when the module is imported
            end = getattr(node, "end_lineno", None) or node.lineno
            fns.append((node.name, node.lineno, end, called, named, bool(node.decorator_list), weak))
        elif isinstance(node, (ast.Import, ast.ImportFrom)) or _is_all(node) or (not entry and _is_main(node)):
            continue
        else:
            runs.append(node)
    return runs, fns, binds


Verdicts = Dict[str, Dict[str, Tuple[str, int, int]]]  # file -> function name -> (verdict, first line, last line)


# a file's functions and what its running code calls / names / calls on objects
Read = Optional[Tuple[List[Fn], Set[str], Set[str], Set[str]]]


def _facts(path: str, entry: bool, resolves: Optional[Resolver] = None) -> Read:
    """(top-level functions, names its running code calls, other names it uses, attributes it calls on objects) of
    a file; None: it does not parse."""
    try:
        runs, defs, binds = _read_file(path, entry, resolves)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return (defs, *_uses(runs, binds))


def function_reach(files: Iterable[str], entry: str, cache: Optional[Dict[Tuple[str, bool], Read]] = None,
                   resolves: Optional[Resolver] = None) -> Verdicts:
    """For each file an entry reaches that parses: its top-level functions' verdicts (called / named / dead).
    ``cache``: each file read once for all the entries of one lint run (the project model's). ``resolves``: the
    project files an import of a file names (:mod:`.reach`); given, uses are tied to files, uses through other
    packages' names are none, and a function only called as an object's attribute (``obj.load()``), or only from
    such functions, is ``named``, not ``called``."""
    called: Set[str] = set()
    named: Set[str] = set()
    weak: Set[str] = set()
    fns: Dict[str, List[Fn]] = {}
    cache = {} if cache is None else cache
    for f in sorted(set(files)):
        key = (f, f == entry)
        if key not in cache:
            cache[key] = _facts(f, f == entry, resolves)
        got = cache[key]
        if got is None:
            continue
        fns[f] = got[0]
        called |= got[1]
        named |= got[2]
        weak |= got[3]
    fns = _tie(fns, called, named, weak)
    _close(fns, called, named, weak)
    out: Verdicts = {}
    for f, defs in fns.items():
        out[f] = {}
        for name, first, last, _, _, decorated, _ in defs:
            verdict = "called" if _used(f, name, called) else \
                "named" if _used(f, name, named) or _used(f, name, weak) or decorated else "dead"
            out[f][name] = (verdict, first, last)
    return out


def _used(f: str, name: str, uses: Set[str]) -> bool:
    return name in uses or f"{f}::{name}" in uses


def _tie(fns: Dict[str, List[Fn]], *sets: Set[str]) -> Dict[str, List[Fn]]:
    """A use tied to a file's function that file does not define (a package re-exporting it, a file that does not
    parse) matches the name anywhere: ``sets`` rewritten in place, the functions' uses in a copy."""
    defined = {f"{f}::{d[0]}" for f, defs in fns.items() for d in defs}

    def norm(uses: Set[str]) -> Set[str]:
        return {u if "::" not in u or u in defined else u.rsplit("::", 1)[1] for u in uses}

    for s in sets:
        s |= norm(s)
        s -= {u for u in s if "::" in u and u not in defined}
    return {f: [(n, a, b, norm(c), norm(m), d, norm(w)) for n, a, b, c, m, d, w in defs] for f, defs in fns.items()}


def _close(fns: Dict[str, List[Fn]], called: Set[str], named: Set[str], weak: Set[str]) -> None:
    """To a fixpoint: a called or named function's uses are its own uses (a registry's function runs); a function
    only weakly used (called on an object) passes on only weak uses."""
    done: Set[Tuple[str, str]] = set()
    changed = True
    while changed:
        changed = False
        for f, defs in fns.items():
            for name, _, _, c, n, _, w in defs:
                if (f, name) not in done and (_used(f, name, called) or _used(f, name, named)):
                    done.add((f, name))
                    called |= c
                    named |= n
                    weak |= w
                    changed = True
    seen: Set[Tuple[str, str]] = set()
    changed = True
    while changed:
        changed = False
        for f, defs in fns.items():
            for name, _, _, c, n, _, w in defs:
                if (f, name) not in done and (f, name) not in seen and _used(f, name, weak):
                    seen.add((f, name))
                    weak |= c | n | w
                    changed = True
