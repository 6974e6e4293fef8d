"""Lint rules as data: each rule module defines one ``RULE`` with its docs (what / why / fix), valid and
invalid examples (the examples are its tests, and the docs in ``docs/rules.md``), and a check function.
``lint/all_rules.py`` lists the rules (this module knows none of them)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterable, Literal, Optional, Tuple

from ..model import Evidence, Finding, Fix, Severity
from ..spec import Docs, FindingSpec, RuleExample

if TYPE_CHECKING:
    from .target import Target

Kind = Literal["ds_config", "accelerate", "hostfile", "deepspeed_env", "shell", "python"]


@dataclass(frozen=True)
class Example:
    """A file of ``kind`` with ``text``; ``options`` are lint options (``world_size``, ``ds``, ``loaded_by``,
    ``client_optimizer``, ``saves_16bit``, ``accelerator``, ``memlock``, ``multinode``...). ``fixed``: for an
    invalid example, the file's text once the rule's safe edits are applied (``dsdoctor fix``), checked by the
    example tests; None where the rule has no safe edit of that file."""

    text: str
    options: Tuple[Tuple[str, object], ...] = ()
    note: str = ""
    fixed: Optional[str] = None


@dataclass(frozen=True)
class Edit:
    """A text edit of one file: replace ``[start, end)`` with ``new``."""

    path: str
    start: int
    end: int
    new: str
    applicability: Literal["safe", "unsafe"] = "safe"
    title: str = ""


@dataclass(frozen=True)
class Hit:
    """A rule's result: a finding plus the edits that fix it (if any)."""

    finding: Finding
    edits: Tuple[Edit, ...] = ()


def as_info(h: Hit, why: str) -> Hit:
    """An error or warning made info, its title saying why in parentheses (a finding that matters only in a
    situation the project does not reach); other severities as they are."""
    if h.finding.severity not in (Severity.ERROR, Severity.WARNING):
        return h
    return Hit(replace(h.finding, severity=Severity.INFO, title=f"{h.finding.title} ({why})"), h.edits)


@dataclass(frozen=True)
class Rule:
    """One lint rule: the spec of its finding name (:class:`~dsdoctor.spec.FindingSpec`: name, severity, summary,
    What / Why / Fix; ``spec.docs.reads`` is the file kind it lints), its check, and valid and invalid examples
    (its tests, and the example in its docs)."""

    spec: FindingSpec
    check: Callable[["Target"], Iterable[Hit]]
    valid: Tuple[Example, ...] = ()
    invalid: Tuple[Example, ...] = ()

    def __post_init__(self) -> None:
        # the first invalid example is also the docs example (the spec's, where it has none of its own)
        ex = self.invalid[0] if self.invalid else None
        if ex is not None and not self.spec.docs.examples:
            opts = ", ".join(f"{k}={v}" for k, v in ex.options)
            shown = RuleExample("lint", f"A {self.kind} file (reported)" + (f", with {opts}" if opts else "") + ".",
                                ex.text.rstrip("\n"), source=f"dsdoctor.lint rule {self.name} (invalid example 1)")
            object.__setattr__(self, "spec", replace(self.spec, docs=replace(self.spec.docs, examples=(shown,))))

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def code(self) -> str:
        return self.spec.code

    @property
    def severity(self) -> Severity:
        return self.spec.severity

    @property
    def summary(self) -> str:
        return self.spec.summary

    @property
    def kind(self) -> Kind:
        """The file kind the rule lints."""
        return self.spec.docs.reads  # type: ignore[return-value]

    @property
    def section(self) -> str:
        return self.spec.section

    @property
    def why(self) -> str:
        return self.spec.docs.why

    def hit(self, target: "Target", pos: Optional[int], title: str, explanation: str = "",
            fixes: Tuple[Fix, ...] = (), edits: Tuple[Edit, ...] = (), severity: Optional[Severity] = None,
            evidence: Tuple[Evidence, ...] = ()) -> Hit:
        line = col = None
        if pos is not None:
            line, col = target.linecol(pos)
        f = Finding(self.name, severity or self.severity, title, explanation or self.why, evidence, fixes,
                    self.section, target.path, line, col)
        return Hit(f, edits)


def spec(name: str, kind: Kind, severity: Severity, summary: str, what: str, why: str, fix: str,
         section: str = "Config") -> FindingSpec:
    """A lint rule's spec: its name (a :mod:`dsdoctor.names` constant) linting files of ``kind``."""
    return FindingSpec(name, severity, summary, Docs(what, why, fix, reads=kind), ("lint",), section)
