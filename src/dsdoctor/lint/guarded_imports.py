"""Project modules that do not parse and that every project file imports inside a ``try`` whose ``except`` catches
the ``SyntaxError`` (a bare ``except:``, ``Exception``, ``BaseException``, ``SyntaxError``): LLaVA's
``llava/model/__init__.py`` tries each optional language model's module so, and a broken one is skipped at import.
Its code never runs, as a file nothing imports (``unrun``); where any import of it is outside such a ``try``, or a
recipe starts it, the syntax error stops the run."""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..literal_gate import gated
from .discover import _read
from .reach import Graph, _resolve

_CAUGHT = ("Exception", "BaseException", "SyntaxError")
_CATCHING = gated(r"except[ \t]*:|except[ \t(]+[^:\n]*\b(?:Exception|BaseException|SyntaxError)\b")


def _catches(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(k is None or isinstance(k, ast.Name) and k.id in _CAUGHT or
               isinstance(k, ast.Attribute) and k.attr in _CAUGHT for k in kinds)


def _imports(node: ast.AST, guarded: bool = False) -> Iterator[Tuple[ast.stmt, bool]]:
    """Every import statement at or under ``node``, and whether a ``try`` catching a SyntaxError holds it."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node, guarded
    elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
        caught = guarded or any(_catches(h) for h in getattr(node, "handlers", []))
        for part, inside in (("body", caught), ("handlers", guarded), ("orelse", guarded), ("finalbody", guarded)):
            for stmt in getattr(node, part, []):
                yield from _imports(stmt, inside)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _imports(child, guarded)


def _edges(path: str, root: str, files: Set[str]) -> Optional[Tuple[Dict[str, int], Set[str]]]:
    """(file -> line of a guarded import of it, files some unguarded import names) of ``path``; None where the file
    holds no catching ``except`` or does not parse (every import of it counts as unguarded)."""
    text = _read(path, 4 * 2**20)
    if _CATCHING.search(text) is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    guarded: Dict[str, int] = {}
    plain: Set[str] = set()
    for node, caught in _imports(tree):
        targets: List[Tuple[int, str, List[str]]] = \
            [(0, a.name, []) for a in node.names] if isinstance(node, ast.Import) else \
            [(node.level, node.module or "", [a.name for a in node.names])]  # type: ignore[attr-defined]
        for level, module, names in targets:
            for f in _resolve(path, level, module, names, root, files):
                if caught:
                    guarded.setdefault(f, node.lineno)
                else:
                    plain.add(f)
    return guarded, plain


class Guarded:
    """For a module that does not parse: "importer:line" where every project file importing it (in ``graph``) does
    so only inside a try catching the SyntaxError, else None. Asked only of the files that fail to parse: the
    importers are read then, once each."""

    def __init__(self, graph: Graph, root: str, started: Set[str]) -> None:
        self.graph, self.root, self.started, self.files = graph, root, started, set(graph)
        self._importers: Optional[Dict[str, List[str]]] = None
        self._edges: Dict[str, Optional[Tuple[Dict[str, int], Set[str]]]] = {}

    def __call__(self, path: str) -> Optional[str]:
        if self._importers is None:
            self._importers = {}
            for g, targets in self.graph.items():
                for f in targets:
                    self._importers.setdefault(f, []).append(g)
        by = self._importers.get(path)
        if not by or path in self.started:
            return None
        where = []
        for g in sorted(by):
            if g not in self._edges:
                self._edges[g] = _edges(g, self.root, self.files)
            e = self._edges[g]
            if e is None or path not in e[0] or path in e[1]:
                return None
            where.append(f"{g}:{e[0][path]}")
        return why(where[0])


def why(where: str) -> str:
    """The reason a module only guarded imports reach never runs."""
    return (f"every project import of it sits in a try whose except catches its SyntaxError ({where}): the import "
            "fails quietly and its code never runs")
