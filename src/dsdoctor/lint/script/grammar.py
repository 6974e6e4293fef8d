"""Syntax a newer Python grammar accepts: a file the running interpreter's parser refuses may be valid Python of
a later release (PEP 701 f-strings of 3.12: a line break, the string's own quote, a backslash or a comment inside
the braces; ``match`` of 3.10; ``except*`` of 3.11; type parameters and ``type`` aliases of 3.12).

libcst's native parser reads those grammars whatever interpreter runs dsdoctor, so the question is answered from
its tree, the same on every machine: the file parses with libcst, and it uses a construct whose release is later
than the running interpreter's (which explains the refusal). What the project's own Python pin says is read by
:mod:`.python_pin`.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Tuple

import libcst as cst

Needs = Tuple[Tuple[int, int], str]  # (the Python release that reads it, the construct)


def newer_grammar(text: str, running: Tuple[int, int] = sys.version_info[:2]) -> Optional[Needs]:
    """(release, what) of the latest construct of ``text`` that only a Python later than ``running`` parses, when
    libcst parses ``text`` and it has one; None otherwise (a true syntax error, or nothing newer explains it)."""
    try:
        module = cst.parse_module(text)
    except Exception:  # noqa: BLE001 - a parser failure: a syntax error of every grammar libcst reads
        return None
    found = _latest(module)
    return found if found is not None and found[0] > running else None


def _latest(module: Any) -> Optional[Needs]:
    """The latest-release construct of ``module`` (the first of that release met)."""
    best: Optional[Needs] = None

    def see(release: Tuple[int, int], what: str) -> None:
        nonlocal best
        if best is None or release > best[0]:
            best = (release, what)

    class Visit(cst.CSTVisitor):
        def visit_Match(self, node: Any) -> None:
            see((3, 10), "a match statement")

        def visit_TryStar(self, node: Any) -> None:
            see((3, 11), "except*")

        def visit_TypeAlias(self, node: Any) -> None:
            see((3, 12), "a type alias statement")

        def visit_TypeParameters(self, node: Any) -> None:
            see((3, 12), "type parameters")

        def visit_FormattedString(self, node: Any) -> None:
            why = _pep701(module, node)
            if why:
                see((3, 12), f"an f-string with {why} inside its braces (PEP 701)")

    module.visit(Visit())
    return best


def _pep701(module: Any, node: Any) -> str:
    """What in f-string ``node`` only Python 3.12's grammar reads: its own quote, a backslash or a comment inside
    a replacement field, or a line break inside one of a single-quoted string; "" when none."""
    quote = node.end
    for part in node.parts:
        if not isinstance(part, cst.FormattedStringExpression):
            continue
        code = module.code_for_node(part)[1:-1]
        if quote in code:
            return "its own quote"
        if "\\" in code:
            return "a backslash"
        if "#" in code:
            return "a comment"
        if "\n" in code and len(quote) == 1:
            return "a line break"
    return ""
