"""How a project module's importers guard their imports of it.

- Inside a ``try`` whose ``except`` catches a ``SyntaxError`` (a bare ``except:``, ``Exception``,
  ``BaseException``, ``SyntaxError``): LLaVA's ``llava/model/__init__.py`` tries each optional language model's
  module so, and a broken one is skipped at import. Its code never runs, as a file nothing imports (``unrun``);
  where any import of it is outside such a ``try``, or a recipe starts it, the syntax error stops the run.
- Under tests of the installed Transformers version (:mod:`.version_tests`; ipex-llm's ``utils/__init__.py``:
  ``if trans_version >= "4.47.0": from .benchmark_util_4_47 import ...`` ... ``else: from .benchmark_util_4_29
  import ...``): the module loads only on the releases its importers' tests let through."""

from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from ..literal_gate import gated
from .discover import _read
from .reach import Graph, _resolve
from .test_paths import is_test
from .version_tests import VersionTests

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


def _gated(path: str, root: str, files: Set[str], releases: Tuple[str, ...]
           ) -> Dict[str, Tuple[int, Optional[FrozenSet[str]]]]:
    """file -> (line, the Transformers releases on which an import of it runs; None: one runs on any) of ``path``."""
    text = _read(path, 4 * 2**20)
    out: Dict[str, Tuple[int, Optional[FrozenSet[str]]]] = {}
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return out
    tests = VersionTests(tree)
    for node, conds in tests.imports():
        on = tests.releases(conds, releases)
        targets: List[Tuple[int, str, List[str]]] = \
            [(0, a.name, []) for a in node.names] if isinstance(node, ast.Import) else \
            [(node.level, node.module or "", [a.name for a in node.names])]  # type: ignore[attr-defined]
        for level, module, names in targets:
            for f in _resolve(path, level, module, names, root, files):
                line, was = out.get(f, (node.lineno, frozenset()))
                out[f] = (line, None if on is None or was is None else was | on)
    return out


class Guarded:
    """Called with a module that does not parse: "importer:line" where every project file importing it (in
    ``graph``) does so only inside a try catching the SyntaxError, else None. :meth:`gate`: the Transformers releases
    its importers' version tests let it load on. Asked only of the files a rule needs it for (a broken file, a
    removed import): the importers are read then, once each."""

    def __init__(self, graph: Graph, root: str, started: Set[str]) -> None:
        self.graph, self.root, self.started, self.files = graph, root, started, set(graph)
        self._importers: Optional[Dict[str, List[str]]] = None
        self._edges: Dict[str, Optional[Tuple[Dict[str, int], Set[str]]]] = {}
        self._gates: Dict[str, Dict[str, Tuple[int, Optional[FrozenSet[str]]]]] = {}

    def _by(self, path: str) -> Optional[List[str]]:
        if self._importers is None:
            self._importers = {}
            for g, targets in self.graph.items():
                for f in targets:
                    self._importers.setdefault(f, []).append(g)
        return self._importers.get(path)

    def gate(self, path: str, releases: Tuple[str, ...], _seen: FrozenSet[str] = frozenset()
             ) -> Optional[Tuple[str, FrozenSet[str]]]:
        """("importer:line", the ``releases`` (Transformers) on which some project import of ``path`` runs) where
        every one sits under tests of the Transformers version, or in a module that only loads under such tests
        (LMFlow: ``raft_trainer`` is imported by ``raft_aligner`` alone, which loads only before 4.35); a test
        file's import is no DeepSpeed run's. None where one does not, or a recipe starts it."""
        by = [g for g in self._by(path) or () if not is_test(g, self.root)]  # a test's import: no DeepSpeed run
        if not by or path in self.started or path in _seen:
            return None
        runs: Set[str] = set()
        where = ""
        for g in sorted(by):
            if g not in self._gates:
                self._gates[g] = _gated(g, self.root, self.files, releases)
            got = self._gates[g].get(path)
            if got is None:
                return None
            on = got[1]
            if on is None:  # imported as such: where the importer itself loads
                above = self.gate(g, releases, _seen | {path})
                if above is None:
                    return None
                where, on = where or above[0], above[1]
            where = where or f"{g}:{got[0]}"
            runs |= on
        return where, frozenset(runs)

    def __call__(self, path: str) -> Optional[str]:
        by = self._by(path)
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
