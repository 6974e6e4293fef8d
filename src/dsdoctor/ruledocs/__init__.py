"""What / Why / Example / Fix for every finding name dsdoctor can emit (``catalog.RULES``).

One public accessor: :func:`doc_for` (a name such as ``cuda-version-mismatch`` or a code such as ``DS101``)
and :func:`all_docs`. Every name is documented once, by its spec in the module that emits it
(``dsdoctor.all_specs``): lint names by their rule (``dsdoctor.lint.rule.Rule``, whose examples are their tests),
explain's by their cause, the others by their ``FindingSpec``, whose examples ``tests/test_ruledocs.py`` executes
where one can be.
"""

from __future__ import annotations

import difflib
from typing import Any, Dict, List, Optional

from ..errors import UsageError
from ..spec import RuleExample
from .doc import COMMAND_ORDER, RuleDoc, command_line

__all__ = ["RuleDoc", "RuleExample", "UnknownRule", "doc_for", "all_docs", "lookup", "suggest", "command_line", "COMMAND_ORDER"]


class UnknownRule(UsageError, LookupError):
    """A name or code dsdoctor does not have; ``suggestions`` are close names/codes."""

    def __init__(self, query: str, suggestions: List[str]) -> None:
        self.query = query
        self.suggestions = suggestions
        hint = f"; did you mean {' or '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"unknown rule {query!r}{hint} (`dsdoctor rules` lists them)")


_CACHE: Dict[str, RuleDoc] = {}


def _build() -> Dict[str, RuleDoc]:
    if not _CACHE:
        from .registry import build

        _CACHE.update(build())
    return _CACHE


def all_docs() -> List[RuleDoc]:
    """Every catalog name's docs, sorted by code."""
    return sorted(_build().values(), key=lambda d: (d.code, d.name))


def lookup(query: str) -> Optional[RuleDoc]:
    """A name (``cuda-version-mismatch``) or a code (``DS101``, any case); None when unknown."""
    docs = _build()
    q = query.strip()
    if q in docs:
        return docs[q]
    if q.lower() in docs:
        return docs[q.lower()]
    up = q.upper()
    for d in docs.values():
        if d.code == up:
            return d
    return None


def suggest(query: str, n: int = 3) -> List[str]:
    """Names or codes close to ``query`` (for did-you-mean); a code is shown with its name."""
    docs = _build()
    q = query.strip()
    if q.upper().startswith("DS"):
        by_code = {d.code: d.name for d in docs.values()}
        norm = "DS" + q[2:].upper().replace("O", "0").replace("I", "1").replace("L", "1")
        codes = [norm] if norm in by_code else difflib.get_close_matches(norm, sorted(by_code), n, 0.6)
        return [f"{c} ({by_code[c]})" for c in codes]
    got = difflib.get_close_matches(q.lower(), sorted(docs), n, 0.6)
    if not got:  # a fragment: names that contain it
        got = [k for k in sorted(docs) if q.lower() and q.lower() in k][:n]
    return got


def doc_for(name: str) -> RuleDoc:
    """The docs of a catalog name (or its code). Raises :class:`UnknownRule` (a ``LookupError``) otherwise."""
    got = lookup(name)
    if got is None:
        raise UnknownRule(name, suggest(name))
    return got


def to_json(d: RuleDoc, full: bool = False) -> Dict[str, Any]:
    """``d`` as JSON (``dsdoctor rules`` / ``rule --format json``); ``full``: with What / Why / Example / Fix."""
    out: Dict[str, Any] = {"name": d.name, "code": d.code, "severity": d.severity.value, "summary": d.summary,
                           "command": d.command, "commands": list(d.commands), "kind": d.kind, "help": d.help_anchor}
    if full:
        out.update({"what": d.what, "why": d.why, "example": d.example, "fix": d.fix, "notes": list(d.notes),
                    "examples": [{"kind": e.kind, "situation": e.situation, "text": e.text, "source": e.source,
                                  "untested": e.untested} for e in d.examples]})
    return out
