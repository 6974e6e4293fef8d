"""What / Why / Example / Fix for every finding name dsdoctor can emit (``catalog.RULES``).

One public accessor: :func:`doc_for` (a name such as ``cuda-version-mismatch`` or a code such as ``DS101``)
and :func:`all_docs`. Every name is documented once, by its spec in the module that emits it
(``dsdoctor.specs``): lint names by their rule (``dsdoctor.lint.rule.Rule``, whose examples are their tests),
explain's by their cause, the others by their ``FindingSpec``, whose examples ``tests/test_ruledocs.py`` executes
where one can be.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ..errors import UsageError
from ..model import Severity
from ..spec import RuleExample

__all__ = ["RuleDoc", "RuleExample", "UnknownRule", "doc_for", "all_docs", "lookup", "suggest", "command_line", "COMMAND_ORDER"]

# How docs/rules.md groups names (by the command that owns a name; a name is documented once).
COMMAND_ORDER: Tuple[str, ...] = ("check", "explain", "lint", "estimate", "smoke", "multinode")
_GROUP_OF = {"verify": "check", "launch": "multinode"}
_SHOWN = {"multinode": "dsdoctor check --hostfile"}


def command_line(command: str) -> str:
    """How a command name is shown: ``dsdoctor check``, ``dsdoctor check --hostfile``, ..."""
    return _SHOWN.get(command, f"dsdoctor {command}")


@dataclass(frozen=True)
class RuleDoc:
    """The documentation of one finding name.

    ``command`` owns the name (docs/rules.md groups by it); ``commands`` are every command that can report it.
    ``kind`` is the lint input kind (``ds_config``, ``python``, ...) for lint names, else what the finding is
    read from (``environment``, ``log``, ``model``, ``run``, ``nodes``). ``example`` is every example as plain
    text; ``examples`` the same, structured (each says where it comes from and how it is executed, or why it
    cannot be: ``RuleExample.untested``). ``help_anchor`` is the path + anchor of its section in the
    repository's docs (``docs/rules.md#<name>``); ``notes`` are other commands' forms of the name.
    """

    name: str
    code: str
    summary: str
    severity: Severity
    what: str
    why: str
    example: str
    fix: str
    command: str
    commands: Tuple[str, ...]
    kind: str
    help_anchor: str
    examples: Tuple[RuleExample, ...] = ()
    notes: Tuple[str, ...] = ()

    @property
    def example_untested(self) -> str:
        """Why no example of this name is executed ("" when one is)."""
        if any(not e.untested for e in self.examples):
            return ""
        return "; ".join(e.untested for e in self.examples) or "no example"

    @property
    def group(self) -> str:
        """The docs/rules.md section (one of ``COMMAND_ORDER``)."""
        return _GROUP_OF.get(self.command, self.command)

    @property
    def title(self) -> str:
        """``name (CODE)``."""
        return f"{self.name} ({self.code})"

    def markdown(self, level: int = 2) -> str:
        """This name's section of docs/rules.md without its HTML anchor (SARIF ``help.markdown``, the terminal)."""
        from .markdown import section

        return section(self, level, anchor=False)

    def text(self) -> str:
        """Plain text for ``dsdoctor rule NAME``."""
        from .markdown import plain

        return plain(self)


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
