"""Dependencies point one way: no import cycles, and no module imports a layer above its own.

The layers of ``src/dsdoctor``, lowest first (each a list of module prefixes; ``dsdoctor`` alone is the package
``__init__``)::

    core          names model spec errors exitcodes textpos atomic knowledge fixes hf settings redact secret_names
                  redact_streams dsconfig hjsondoc memlock launcherfiles version stdout paths codecache literal_gate
    probes        probes
    checks        checks
    lint          lint
    explain       explain
    estimate      estimate
    multinode     multinode
    verify        verify
    smoke         smoke
    launcher      launcher
    bugreport     bugreport
    presentation  all_specs catalog ruledocs render output schema completion
    entry         commands cliparse cli api entry __main__ dsdoctor

The rule: a module may import any module of its own top-level package (``dsdoctor.lint.config.x`` may import
``dsdoctor.lint.target``), any module of its own layer, and any module of a LOWER layer; never one of a higher
layer. On top of that the import graph has no cycle at all, not even inside one package (``lint/__init__`` ->
``lint/accelerate`` -> ``lint/__init__`` fails). Every import counts, also one inside a function (a deferred
import still ties the two modules together); only imports under ``if TYPE_CHECKING:`` are skipped (they never
run). ``from pkg.mod import name`` where ``name`` is not a module is an edge to ``pkg.mod``; where it is a module
(``from . import hf``), an edge to that module. A fact two layers need lives in the lower one (e.g. the memlock
threshold in ``dsdoctor.memlock``, read by both ``checks.rules`` and the lint rule).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "dsdoctor"

LAYERS: List[Tuple[str, List[str]]] = [
    ("core", ["names", "model", "spec", "errors", "exitcodes", "textpos", "atomic", "knowledge", "fixes", "hf", "settings",
              "redact", "secret_names", "redact_streams", "dsconfig", "hjsondoc", "memlock", "launcherfiles", "version", "stdout", "paths",
              "codecache", "literal_gate", "regular_file"]),
    ("probes", ["probes"]),
    ("checks", ["checks"]),
    ("lint", ["lint"]),
    ("explain", ["explain"]),
    ("estimate", ["estimate"]),
    ("multinode", ["multinode"]),
    ("verify", ["verify"]),
    ("smoke", ["smoke"]),
    ("launcher", ["launcher"]),
    ("bugreport", ["bugreport"]),
    ("presentation", ["all_specs", "catalog", "ruledocs", "render", "output", "schema", "completion"]),
    ("entry", ["commands", "cliparse", "cli", "api", "entry", "__main__", ""]),  # "" is the package __init__
]

# Edges in areas other issue-17 work is changing (lint internals, explain, the command bodies moving into
# commands/): being moved by issue 17 work. Empty this list as they go (a gone edge fails the last test).
KNOWN: Set[Tuple[str, str]] = set()  # edges allowed for now (none: keep it empty)


def _modules() -> Dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, not ``.__init__``)."""
    out = {}
    for p in sorted((SRC / ROOT).rglob("*.py")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[ast.stmt]:
    """Every import statement, at any depth, except those in the body of ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for sub in node.orelse:
                yield from _imports(ast.Module(body=[sub], type_ignores=[]))
            continue
        yield from _imports(node)


def _owner(name: str) -> Optional[str]:
    """The module an imported dotted name lives in: itself if a module, else the closest enclosing module."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _targets(mod: str, path: Path, node: ast.stmt) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == ROOT or alias.name.startswith(ROOT + "."):
                t = _owner(alias.name)
                if t:
                    yield t
        return
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
        if base != ROOT and not base.startswith(ROOT + "."):
            return
    for alias in node.names:
        t = _owner(f"{base}.{alias.name}") if alias.name != "*" else _owner(base)
        if t:
            yield t


@functools.lru_cache(maxsize=None)
def _graph() -> Dict[str, FrozenSet[str]]:
    return {a: frozenset(bs) for a, bs in graph().items()}


def graph() -> Dict[str, Set[str]]:
    """Module -> the modules it imports (self-imports dropped)."""
    g: Dict[str, Set[str]] = {}
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        g[mod] = {t for node in _imports(tree) for t in _targets(mod, path, node) if t != mod}
    return g


def _sccs(g: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components (Tarjan, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def layer(mod: str) -> Optional[int]:
    """The index in LAYERS of a module's layer (longest matching prefix), or None if none declares it."""
    rel = mod[len(ROOT) + 1:] if mod != ROOT else ""
    best: Optional[Tuple[int, int]] = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (p == "" and rel == "") or (p and (rel == p or rel.startswith(p + "."))):
                if best is None or len(p) > best[1]:
                    best = (i, len(p))
    return best[0] if best else None


def _top(mod: str) -> str:
    return ".".join(mod.split(".")[:2])


def test_the_graph_counts_deferred_imports_and_skips_type_checking() -> None:
    g = _graph()
    assert "dsdoctor.hjsondoc" in g["dsdoctor.dsconfig"]  # imported inside load()
    assert "dsdoctor.ruledocs.doc" in g["dsdoctor.ruledocs.markdown"]  # a relative import, resolved
    assert "dsdoctor.api" not in g["dsdoctor"]  # only under `if TYPE_CHECKING:` (the API is lazy)


def test_every_module_has_a_layer() -> None:
    missing = sorted(m for m in MODULES if layer(m) is None)
    assert not missing, "modules no layer declares (add them to LAYERS in tests/test_layers.py): " + ", ".join(missing)


def test_no_import_cycle() -> None:
    """No strongly connected component of more than one module (KNOWN edges left out)."""
    g = {a: {b for b in bs if (a, b) not in KNOWN} for a, bs in _graph().items()}
    cycles = [c for c in _sccs(g) if len(c) > 1]
    lines = []
    for c in cycles:
        lines.append("cycle: " + ", ".join(c))
        lines += [f"    {a} -> {b}" for a in c for b in sorted(g[a] & set(c))]
    assert not cycles, "import cycles (every edge inside each):\n" + "\n".join(lines)


def upward_edges() -> List[Tuple[str, str]]:
    """Every (importer, imported) pair that points to a higher layer, outside the importer's own top package."""
    g = _graph()
    out = []
    for a in sorted(g):
        la = layer(a)
        for b in sorted(g[a]):
            lb = layer(b)
            if la is None or lb is None or _top(a) == _top(b):
                continue
            if lb > la:
                out.append((a, b))
    return out


def test_no_upward_import() -> None:
    bad = [e for e in upward_edges() if e not in KNOWN]
    msg = "\n".join(f"    {a} ({LAYERS[layer(a) or 0][0]}) -> {b} ({LAYERS[layer(b) or 0][0]})" for a, b in bad)
    assert not bad, "imports of a higher layer (see the order in tests/test_layers.py):\n" + msg


def test_known_edges_still_exist() -> None:
    """An allowlisted edge that is gone is dropped from KNOWN (the list only shrinks)."""
    g = _graph()
    gone = sorted(e for e in KNOWN if e[1] not in g.get(e[0], set()))
    assert not gone, f"no longer imported, drop from KNOWN: {gone}"
