"""Where a module uses each name, read in one pass and kept for every name asked (:mod:`.callers`).

A file with many findings in many top-level functions or classes (FastChat's ``model_adapter.py``: one adapter class
per model) asks, for each of them, where every project file a ZeRO-3 launch reaches uses its name. Walking each file
once per name made linting such a project quadratic (GITA: 24 names, 5 s of its 5.2 s); the index answers each name
from one walk (:func:`.flags_gating.gates_once` reads a file's option gates once).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from .walk import walk


@dataclass
class NameUses:
    """What one walk of a module saw: ``names``: each plain name -> (node id, line, column) of its uses (not in an
    import line, a docstring, ``__all__``, a keyword, a registry key or a compared string); ``strings``: the other
    string literals; ``aliases``: the imported names bound under another name (``import f as g``: ``f``); ``main``:
    the text of the module's ``if __name__ ...`` blocks, whose names are left out (``main_dead``)."""

    names: Dict[str, List[Tuple[int, int, int]]] = field(default_factory=dict)
    strings: List[str] = field(default_factory=list)
    aliases: List[str] = field(default_factory=list)
    main: List[str] = field(default_factory=list)

    def uses(self, name: str, skip: Optional[int], listed: Set[Tuple[int, int]]
             ) -> Optional[Tuple[List[Tuple[int, int]], bool]]:
        """(the positions of ``name``'s uses, not node ``skip`` nor a registry entry of ``listed``; whether a
        left-out ``__main__`` block names it); None where the name is imported under another name or a string
        names it."""
        word = re.compile(r"\b" + re.escape(name) + r"\b")
        if any(word.search(s) for s in self.strings) or any(word.search(a) for a in self.aliases):
            return None
        found = [(line, col) for node, line, col in self.names.get(name, ())
                 if node != skip and (line, col) not in listed]
        return found, any(word.search(m) for m in self.main)


def is_main(test: Any) -> bool:
    """Is ``test`` an ``if __name__ ...`` test?"""
    return isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value == "__name__"


def _walk(src: Any, main_dead: bool) -> NameUses:
    out = NameUses()
    keywords: Set[int] = set()
    code = cst.Module([]).code_for_node

    class Visit(cst.CSTVisitor):
        def visit_ImportAlias(self, node: Any) -> bool:
            if node.asname is not None:
                out.aliases.append(code(node.name))
            return False  # an import line is no use

        def visit_ImportFrom(self, node: Any) -> bool:  # ``from pkg.f import f``: the module's name is no use
            if not isinstance(node.names, cst.ImportStar):
                for alias in node.names:
                    self.visit_ImportAlias(alias)
            return False

        def visit_If(self, node: Any) -> bool:
            if main_dead and is_main(node.test) and any(node is st for st in src.module.body):
                out.main.append(code(node.body))
                return False
            return True

        def visit_Assign(self, node: Any) -> bool:  # ``__all__ = [...]``: an export list, no use
            return not any(isinstance(x.target, cst.Name) and x.target.value == "__all__" for x in node.targets)

        def visit_Expr(self, node: Any) -> bool:
            return not isinstance(node.value, (cst.SimpleString, cst.ConcatenatedString))  # a docstring: no use

        def visit_Arg(self, node: Any) -> None:
            if node.keyword is not None:
                keywords.add(id(node.keyword))

        def visit_Comparison(self, node: Any) -> None:  # ``args.method == "lora"``: a value, no lookup
            keywords.update(id(x) for x in (node.left, *(c.comparator for c in node.comparisons))
                            if isinstance(x, cst.SimpleString))

        def visit_DictElement(self, node: Any) -> None:  # a registry's key (:mod:`.registry`)
            if isinstance(node.key, cst.SimpleString):
                keywords.add(id(node.key))

        def visit_SimpleString(self, node: Any) -> None:
            if id(node) not in keywords:
                out.strings.append(node.value)

        def visit_Name(self, node: Any) -> None:
            if id(node) not in keywords:
                r = src.positions[node]
                out.names.setdefault(node.value, []).append((id(node), r.start.line, r.start.column))

    walk(src.module, Visit())
    return out


def name_uses(src: Any, main_dead: bool, cache: Dict[str, Any]) -> NameUses:
    """The :class:`NameUses` of the parsed ``src`` (its module parses), walked once per linted file."""
    key = f"uses:{src.path}:{main_dead}"
    if key not in cache:
        cache[key] = _walk(src, main_dead)
    return cache[key]  # type: ignore[no-any-return]
