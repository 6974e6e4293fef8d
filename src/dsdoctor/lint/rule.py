"""Lint rules as data: each rule module defines one ``RULE`` with its docs (what / why / fix), valid and
invalid examples (the examples are its tests, and the docs in ``docs/rules.md``), and a check function.
``lint/all_rules.py`` lists the rules (this module knows none of them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Literal, Optional, Tuple

from ..model import Evidence, Finding, Fix, Severity

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


@dataclass(frozen=True)
class Rule:
    """One lint rule: the spec of its finding name (name, ``code``, summary, What / Why / Fix, examples) and its
    check. ``catalog`` and ``ruledocs`` read the name's code and docs here."""

    name: str  # the catalog name (public contract)
    kind: Kind
    severity: Severity  # the usual severity (a rule may report another one in a given case)
    summary: str
    what: str
    why: str
    fix: str
    check: Callable[["Target"], Iterable[Hit]]
    valid: Tuple[Example, ...] = ()
    invalid: Tuple[Example, ...] = ()
    section: str = field(default="Config")
    code: str = ""  # the short code (public contract, e.g. ``DS408``)

    def hit(self, target: "Target", pos: Optional[int], title: str, explanation: str = "",
            fixes: Tuple[Fix, ...] = (), edits: Tuple[Edit, ...] = (), severity: Optional[Severity] = None,
            evidence: Tuple[Evidence, ...] = ()) -> Hit:
        line = col = None
        if pos is not None:
            line, col = target.linecol(pos)
        f = Finding(self.name, severity or self.severity, title, explanation or self.why, evidence, fixes,
                    self.section, target.path, line, col)
        return Hit(f, edits)
