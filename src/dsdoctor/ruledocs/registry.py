"""Builds every catalog name's :class:`RuleDoc`: lint names from the lint rule definitions, the others from
the family modules (``env``, ``explain``, ``runtime``, ``multinode``), plus other commands' forms (``Also``).
A catalog name nobody documented falls back to its catalog summary (tests fail on such a name)."""

from __future__ import annotations

import importlib
from typing import Dict, List, Tuple

from ..catalog import RULES
from ..model import Severity
from . import RuleDoc
from .spec import Also, Entry, RuleExample

FAMILIES = ("env", "explain", "runtime", "multinode")


def anchor(name: str) -> str:
    return f"docs/rules.md#{name}"


def _lint_docs() -> Dict[str, RuleDoc]:
    from ..lint.all_rules import REGISTRY

    out: Dict[str, RuleDoc] = {}
    for name, r in REGISTRY.items():
        ex = r.invalid[0] if r.invalid else None
        examples: Tuple[RuleExample, ...] = ()
        if ex is not None:
            opts = ", ".join(f"{k}={v}" for k, v in ex.options)
            examples = (RuleExample("lint", f"A {r.kind} file (reported)" + (f", with {opts}" if opts else "") + ".",
                                    ex.text.rstrip("\n"), source=f"dsdoctor.lint rule {name} (invalid example 1)"),)
        out[name] = RuleDoc(name, RULES[name].code, r.summary, r.severity, r.what, r.why, render_examples(examples),
                            r.fix, "lint", ("lint",), r.kind, anchor(name), examples)
    return out


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


def _from_entry(e: Entry) -> RuleDoc:
    return RuleDoc(e.name, RULES[e.name].code, RULES[e.name].summary, e.severity, e.what, e.why,
                   render_examples(e.examples), e.fix, e.commands[0], e.commands, e.kind, anchor(e.name), e.examples)


def _fallback(name: str) -> RuleDoc:
    s = RULES[name].summary
    return RuleDoc(name, RULES[name].code, s, Severity.ERROR, s + ".", "", "", "", "check", ("check",), "environment",
                   anchor(name))


def entries() -> Tuple[List[Entry], List[Also]]:
    ents: List[Entry] = []
    also: List[Also] = []
    for fam in FAMILIES:
        mod = importlib.import_module(f"{__package__}.{fam}")
        ents += list(getattr(mod, "ENTRIES", ()))
        also += list(getattr(mod, "ALSO", ()))
    return ents, also


def build() -> Dict[str, RuleDoc]:
    docs = _lint_docs()
    ents, also = entries()
    for e in ents:
        if e.name not in RULES:
            raise ValueError(f"rule docs for {e.name!r}, which is not in catalog.RULES")
        if e.name in docs:
            raise ValueError(f"{e.name!r} documented twice")
        docs[e.name] = _from_entry(e)
    for a in also:
        d = docs.get(a.name)
        if d is None:
            raise ValueError(f"Also for undocumented name {a.name!r}")
        examples = d.examples + a.examples
        docs[a.name] = RuleDoc(d.name, d.code, d.summary, d.severity, d.what, d.why, render_examples(examples), d.fix,
                               d.command, d.commands + ((a.command,) if a.command not in d.commands else ()), d.kind,
                               d.help_anchor, examples, d.notes + ((a.note,) if a.note else ()))
    for name in RULES:
        if name not in docs:
            docs[name] = _fallback(name)
    return docs
