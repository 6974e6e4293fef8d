"""The project's own import graph: which of its Python files an entry script can run.

An import is followed when it names a file of the project: relative imports from the importing file's package;
absolute ones from the importing file's directory, each directory above it up to the project root, and
``src/`` (how a script, ``sys.path`` tweaks and ``pip install -e .`` find them). Importing ``a.b.c`` also runs
``a/__init__.py`` and ``a/b/__init__.py``; ``from a.b import c`` reaches ``a/b/c.py`` when it is a module.
Imports of third-party packages resolve to nothing unless the project ships a copy in one of those places.

An import under ``if TYPE_CHECKING:`` never runs. In a lazy package's ``__init__.py`` (Transformers' and its
copies': the block lists what ``_LazyModule`` imports when a name is first read) it runs for the names an importer
takes: ``from transformers import LlamaForCausalLM`` reaches the Llama modules, not the other models (a project
that ships a copy of Transformers reached all of its 1,100 modules before).

This is reach by file (what an import runs). Which functions of those files the entry can call is
:mod:`.calls` (call-based reach, by name): a reached module's inference loader that nothing calls is not run.
"""

from __future__ import annotations

import os
import re
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .discover import _read

Graph = Dict[str, Set[str]]
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)|import[ \t]+([^\n#;]+))",
                     re.M)
_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
_TYPE_CHECKING = re.compile(r"^([ \t]*)if[ \t]+(?:typing\.)?TYPE_CHECKING[ \t]*:[ \t]*(?:#[^\n]*)?$", re.M)
_ATTR = re.compile(r"\.[ \t]*([A-Za-z_]\w*)")
_LAZY = ("_LazyModule", "_import_structure", "define_import_structure")  # a lazy package's __init__.py


def _names(raw: str) -> List[str]:
    out = []
    for part in raw.replace("\\\n", " ").strip("()").split(","):
        name = part.strip().split(" as ")[0].strip()
        if _NAME.match(name):
            out.append(name)
    return out


def _typing_spans(text: str) -> List[Tuple[int, int]]:
    """The (start, end) offsets of the bodies of the file's ``if TYPE_CHECKING:`` blocks (lines indented deeper
    than the ``if``; blank and comment lines inside)."""
    spans: List[Tuple[int, int]] = []
    for m in _TYPE_CHECKING.finditer(text):
        depth = len(m.group(1).expandtabs())
        end = pos = m.end() + 1
        while pos < len(text):
            nl = text.find("\n", pos)
            nl = len(text) if nl < 0 else nl
            line = text[pos:nl]
            body = line.lstrip()
            if body and not body.startswith("#"):
                if len(line[:len(line) - len(body)].expandtabs()) <= depth:
                    break
                end = nl
            pos = nl + 1
        spans.append((m.end(), end))
    return spans


Import = Tuple[int, str, List[str], bool]  # level, module, names, under ``if TYPE_CHECKING:``


def _imports(path: str) -> List[Import]:
    """(level, module, names, typing only) of every import statement of the file (also inside functions; read line
    by line: a file that does not parse still has its imports, and no syntax tree is built)."""
    out: List[Import] = []
    text = _read(path, 4 * 2**20)
    spans = _typing_spans(text) if "TYPE_CHECKING" in text else []
    for m in _IMPORT.finditer(text):
        typing = any(a <= m.start() < b for a, b in spans)
        if m.group(4) is not None:
            out += [(0, x, [], typing) for x in _names(m.group(4))]
        else:
            out.append((len(m.group(1)), m.group(2), _names(m.group(3)), typing))
    return out


Memo = Dict[Tuple[str, str], Optional[str]]


def _module(base: str, dotted: str, files: Set[str], memo: Optional[Memo] = None) -> Optional[str]:
    """The project file ``dotted`` names from ``base`` (``memo``: the answers so far for the same ``files``; the
    files of one directory import the same modules)."""
    if memo is None:
        return _find(base, dotted, files)
    key = (base, dotted)
    if key not in memo:
        memo[key] = _find(base, dotted, files)
    return memo[key]


def _find(base: str, dotted: str, files: Set[str]) -> Optional[str]:
    rel = dotted.replace(".", os.sep)
    for cand in (rel + ".py", os.path.join(rel, "__init__.py")):
        p = os.path.normpath(os.path.join(base, cand))
        if p in files:
            return p
    return None


def _inits(base: str, dotted: str, files: Set[str]) -> List[str]:
    """The ``__init__.py`` of each package along ``dotted`` (importing a.b.c runs a and a.b)."""
    parts = dotted.split(".")
    out = []
    for i in range(1, len(parts)):
        p = os.path.normpath(os.path.join(base, *parts[:i], "__init__.py"))
        if p in files:
            out.append(p)
    return out


def _bases(path: str, root: str) -> List[str]:
    out = []
    d = os.path.dirname(path) or "."
    while True:
        out.append(d)
        if os.path.normpath(d) == root or d in (".", os.sep) or not d:
            break
        d = os.path.dirname(d) or "."
    if root not in out:
        out.append(root)
    out.append(os.path.normpath(os.path.join(root, "src")))
    return out


Named = Dict[str, Optional[Set[str]]]  # imported file -> the names taken from it (None: the module itself)


def _add(got: Named, path: str, names: Optional[Set[str]]) -> None:
    if path in got and (got[path] is None or names is None):
        got[path] = None
    else:
        got[path] = (got.get(path) or set()) | (names or set()) if names is not None else None


def _resolve(path: str, level: int, module: str, names: List[str], root: str, files: Set[str],
             memo: Optional[Memo] = None) -> Named:
    """The project files one import statement runs, with the names it takes from each: ``from m import f`` takes
    ``f`` from m; ``import m`` / ``from pkg import m`` take the module (None); the packages above only run their
    module-level code (no name)."""
    if level:
        base = os.path.dirname(path) or "."
        for _ in range(level - 1):
            base = os.path.dirname(base) or "."
        bases = [base]
    else:
        bases = _bases(path, root)
    for base in bases:
        got: Named = {}
        plain: Set[str] = set()
        for n in names:
            sub = _module(base, f"{module}.{n}" if module else n, files, memo)
            if sub is not None:
                _add(got, sub, None)
            else:
                plain.add(n)
        m = _module(base, module, files, memo) if module else \
            (_module(base, "__init__", files, memo) if plain else None)
        if m is not None:
            _add(got, m, None if not names or "*" in plain else plain)
        if got:
            for init in _inits(base, module + ".x", files) if module else ():
                _add(got, init, set())
            return got
    return {}


def import_graph(files: Iterable[str], root: str, named: Optional[Dict[Tuple[str, str], Optional[Set[str]]]] = None
                 ) -> Graph:
    """Each Python file -> the project's files its imports name. ``named`` (when given) receives, for each edge
    (importer, imported), the names the importer takes from the imported file (None: the module itself)."""
    have = {os.path.normpath(f) for f in files}
    root = os.path.normpath(root)
    graph: Graph = {}
    memo: Memo = {}
    done: Dict[Tuple[str, int, str, Tuple[str, ...]], Named] = {}  # an import resolves alike in one directory
    lazy: Dict[str, Named] = {}  # lazy __init__.py -> what its TYPE_CHECKING block imports
    took_from: Dict[Tuple[str, str], Optional[Set[str]]] = {}
    for f in sorted(have):
        edges: Named = {}
        typing: Named = {}
        for level, module, names, typing_only in _imports(f):
            key = (os.path.dirname(f), level, module, tuple(names))
            if key not in done:
                done[key] = _resolve(f, level, module, names, root, have, memo)
            for target, took in done[key].items():
                _add(typing if typing_only else edges, target, took)
        edges.pop(f, None)
        typing.pop(f, None)
        if typing and os.path.basename(f) == "__init__.py" and any(w in _read(f, 4 * 2**20) for w in _LAZY):
            lazy[f] = typing
        graph[f] = set(edges)
        took_from.update(((f, t), took) for t, took in edges.items())
    _lazy_edges(graph, took_from, lazy)
    if named is not None:
        named.update(took_from)
    return graph


def _attrs(path: str) -> Optional[Set[str]]:
    """The names a file that imports a lazy package as a module (``import transformers``) can read from it: every
    name it writes after a dot (``transformers.TrainerCallback``; more, never fewer)."""
    text = _read(path, 4 * 2**20)
    return None if "import *" in text else set(_ATTR.findall(text))  # a star import: any name


def _lazy_edges(graph: Graph, took_from: Dict[Tuple[str, str], Optional[Set[str]]], lazy: Dict[str, Named]) -> None:
    """Edges from each importer of a lazy ``__init__.py`` to the modules its TYPE_CHECKING block imports the names
    the importer takes from (all of them where it takes the module itself); through lazy packages below it too."""
    todo = [(f, t, _attrs(f) if took_from[(f, t)] is None else took_from[(f, t)])
            for f in sorted(graph) for t in sorted(graph[f]) if t in lazy]
    while todo:
        f, init, took = todo.pop()
        for target, names in lazy[init].items():
            if names is not None and not names:  # a package above a module it imports: runs with any of them
                give: Optional[Set[str]] = set()
            else:
                give = names if took is None else took if names is None else names & took
                if give is not None and not give:
                    continue
            if target == f:
                continue
            key = (f, target)
            old = took_from.get(key, set())
            new = None if old is None or give is None or names is None else old | give
            if key in took_from and new == old:
                continue
            graph[f].add(target)
            took_from[key] = new
            if target in lazy:
                todo.append((f, target, give))


def reach(graph: Graph, entries: Iterable[str]) -> Set[str]:
    """The files the entries run: the entries and everything their imports reach."""
    seen: Set[str] = set()
    todo = [os.path.normpath(e) for e in entries]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(graph.get(f, ()))
    return seen
