"""The project's Python files nothing runs: no recipe starts them and no project file imports them.

``unrun`` holds them with why. Among them a *dead module* is one that runs no code of its own (no ``__main__``
block, no bare top-level call: :data:`standalone._RUNS`) in a directory whose other modules the project does
import: a backup copy or an abandoned variant beside the live ones (OntoProtein's ``src/op_deepspeed.py``, whose
one import is commented out). A file inside a directory with a license of its own, below one of the repository's
top-level directories, is part of a bundled copy of another project (BLEUBERI's ``eval/FastChat``): where no launch
starts a file of the copy, no project file outside it imports its package by name, and the project's own files do
not reach this one, the copy's scripts are that project's, run by its users. A module of a copy that a file the
copy's launches reach imports by name (from a ``src/`` put on ``sys.path``) is neither. A whole tree the import graph never
sees imported (a package whose directory name is no importable name, a registry importing by string) has no
imported sibling and no license of its own: plain ``unrun``.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Callable, List, Optional, Set

from .guarded_imports import Guarded
from .reach import Graph, reach
from .standalone import _RUNS
from .test_paths import is_test

if TYPE_CHECKING:
    from .found import Found
    from .recipe import Recipe

UNRUN = "nothing in the project runs or imports it (no launch line, README command or project import names it)"
DEAD_MODULE = ("a module that runs nothing itself, beside modules the project imports, that no project file imports "
               "and no launch starts")
BUNDLED = "a file of a bundled copy of another project ({} holds its own license) that nothing in the project runs or imports"
_LICENSES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING")


def unused_code(why: str) -> bool:
    """Is ``why`` (an ``unrun`` entry) a dead module's or a bundled copy's, not only "nothing names it"?"""
    return why == DEAD_MODULE or why.startswith(BUNDLED.split("{", 1)[0])


def _bundled(path: str, root: str) -> Optional[str]:
    """The directory below ``root`` holding ``path`` that carries a license of its own (a copy of another project:
    BLEUBERI's eval/FastChat), or None."""
    d, top = os.path.dirname(os.path.normpath(path)), os.path.normpath(root)
    # a directory right under the root is one of the repository's own sub-projects (FuseLLM's FuseChat/, licensed
    # on its own, whose scripts its README runs): a copy of another project sits inside one of the project's
    # directories (eval/FastChat)
    while d and os.path.dirname(d) not in (top, "", ".", os.sep) and os.path.dirname(d) != d:
        if any(os.path.isfile(os.path.join(d, n)) for n in _LICENSES):
            return d
        d = os.path.dirname(d)
    return None


def _imported_names(files: List[str], read: Callable[[str], str]) -> Set[str]:
    """The top-level names the import statements of ``files`` name (resolved or not)."""
    return {m.split(".", 1)[0] for m in _imported_modules(files, read)}


_FROM = re.compile(r"^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b[ \t]*\(?([\w \t,]*)", re.M)
_PLAIN = re.compile(r"^[ \t]*import[ \t]+([A-Za-z_][\w.]*)", re.M)


def _imported_modules(files: List[str], read: Callable[[str], str]) -> Set[str]:
    """The dotted modules the absolute imports of ``files`` may load: ``a.b`` of ``import a.b``; ``a.b`` and
    ``a.b.c`` of ``from a.b import c``."""
    out: Set[str] = set()
    for f in files:
        text = read(f)
        out.update(m.group(1) for m in _PLAIN.finditer(text))
        for m in _FROM.finditer(text):
            out.add(m.group(1))
            out.update(f"{m.group(1)}.{n.strip()}" for n in m.group(2).split(",") if n.strip().isidentifier())
    return out


def _imported_module(path: str, copy: str, modules: Set[str], read: Callable[[str], str]) -> bool:
    """Is the file of a bundled copy a module ``modules`` names (under any of its directories taken as the import
    root: ``src/pkg/models/lstr.py`` is ``pkg.models.lstr``), or one its imported package's ``__init__`` imports
    (``from .lstr import ...``)?"""
    parts = os.path.relpath(os.path.splitext(path)[0], copy).split(os.sep)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    names = {".".join(parts[k:]) for k in range(len(parts))}
    if names & modules:
        return True
    init = os.path.join(os.path.dirname(path), "__init__.py")
    package = {n.rpartition(".")[0] for n in names if "." in n}
    return bool(package & modules) and os.path.isfile(init) and re.search(
        r"^[ \t]*from[ \t]+\.(?:[ \t]+import[^\n]*\b|)" + re.escape(parts[-1]) + r"\b", read(init), re.M) is not None


def _packages(copy: str) -> Set[str]:
    """The importable top-level names of a bundled copy: its packages and modules."""
    try:
        names = os.listdir(copy)
    except OSError:
        return set()
    return {n[:-3] if n.endswith(".py") else n for n in names
            if n.endswith(".py") or os.path.isfile(os.path.join(copy, n, "__init__.py"))}


def unrun(recipes: List["Recipe"], graph: Graph, root: str, found: "Found", read: Callable[[str], str]) -> None:
    """The Python files that no recipe starts (DeepSpeed or not: ``python demo.py`` counts) and no project file
    imports (a vendored demo, a benchmark module no registry lists): ``unrun``, dead modules with
    :data:`DEAD_MODULE`, the unreached files of a bundled copy with :data:`BUNDLED`. Tests are run by their runner."""
    ran = {r.entry for r in recipes if r.entry is not None}
    imported: Set[str] = set().union(*graph.values()) if graph else set()
    live_dirs = {os.path.dirname(f) for f in imported}
    copies = {f: c for f in graph if (c := _bundled(f, root)) is not None}
    kept: Set[str] = set()  # files of a copy its run files import by a name the graph does not resolve
    if copies:  # what the project's own files and launches reach of each copy
        outer = [f for f in graph if f not in copies]
        live = reach(graph, outer + [e for e in ran if e in copies])
        named = _imported_names(outer, read)  # a copy put on sys.path: its imports resolve nowhere in the graph
        inner = {c: _imported_modules([g for g in live if copies.get(g) == c], read) for c in set(copies.values())}
        for f, c in copies.items():
            if f in live or is_test(f, root) or _packages(c) & named:
                continue
            if _imported_module(f, c, inner[c], read):
                kept.add(f)  # a module a launched file of the copy imports (from its src/ on sys.path)
            else:
                found.unrun[f] = BUNDLED.format(c)
    for f in graph:
        if f in ran or f in imported or is_test(f, root) or f in found.unrun or f in kept:
            continue
        dead = os.path.dirname(f) in live_dirs and os.path.basename(f) not in ("__main__.py", "__init__.py") \
            and not _RUNS.search(read(f))
        found.unrun[f] = DEAD_MODULE if dead else UNRUN
    found.guarded = Guarded(graph, root, {os.path.normpath(r) for r in ran})
