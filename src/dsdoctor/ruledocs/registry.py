"""Builds every catalog name's :class:`RuleDoc` from its one spec (``dsdoctor.all_specs.owners``: a run-time
``FindingSpec``, a lint ``Rule``, an explain ``Cause`` with docs), plus other commands' forms of it
(``all_specs.forms``: their command, examples and note). A catalog name nobody documented falls back to its catalog
summary (tests fail on such a name)."""

from __future__ import annotations

from typing import Dict, List, Tuple

from ..catalog import RULES
from ..model import Severity
from ..spec import FindingSpec, RuleExample
from .doc import RuleDoc


def anchor(name: str) -> str:
    return f"docs/rules.md#{name}"


def render_examples(examples: Tuple[RuleExample, ...]) -> str:
    parts: List[str] = []
    for e in examples:
        block = [e.situation]
        if e.text:
            block.append(e.text)
        if e.source and e.kind in ("check", "log", "facts"):
            block.append(f"(fixture: {e.source})")
        if e.untested:
            block.append(f"(not executed: {e.untested})")
        parts.append("\n".join(block))
    return "\n\n".join(parts)


def _doc(s: FindingSpec) -> RuleDoc:
    d = s.docs
    return RuleDoc(s.name, s.code, s.summary, s.severity, d.what, d.why, render_examples(d.examples), d.fix,
                   s.commands[0], s.commands, d.reads, anchor(s.name), d.examples)


def _fallback(name: str) -> RuleDoc:
    s = RULES[name].summary
    return RuleDoc(name, RULES[name].code, s, Severity.ERROR, s + ".", "", "", "", "check", ("check",), "environment",
                   anchor(name))


def build() -> Dict[str, RuleDoc]:
    from ..all_specs import forms, owners

    docs: Dict[str, RuleDoc] = {}
    for s in owners():
        if s.name in docs:
            raise ValueError(f"{s.name!r} documented twice")
        docs[s.name] = _doc(s)
    for f in forms():
        name = f.of
        d = docs.get(name)
        if d is None:
            raise ValueError(f"a {f.command} form of undocumented name {name!r}")
        examples = d.examples + f.examples
        docs[name] = RuleDoc(d.name, d.code, d.summary, d.severity, d.what, d.why, render_examples(examples), d.fix,
                             d.command, d.commands + ((f.command,) if f.command not in d.commands else ()), d.kind,
                             d.help_anchor, examples, d.notes + ((f.note,) if f.note else ()))
    for name in RULES:
        if name not in docs:
            docs[name] = _fallback(name)
    return docs
