"""Lint rules as data: each rule module defines one ``RULE`` with its docs (what / why / fix), valid and
invalid examples (the examples are its tests, and the docs in ``docs/rules.md``), and a check function."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Tuple

from ..model import Evidence, Finding, Fix, Severity

if TYPE_CHECKING:
    from .target import Target

Kind = Literal["ds_config", "accelerate", "hostfile", "deepspeed_env", "shell", "python"]


@dataclass(frozen=True)
class Example:
    """A file of ``kind`` with ``text``; ``options`` are lint options (``world_size``, ``ds``, ``loaded_by``,
    ``client_optimizer``, ``saves_16bit``, ``accelerator``, ``memlock``, ``multinode``...)."""

    text: str
    options: Tuple[Tuple[str, object], ...] = ()
    note: str = ""


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

    def hit(self, target: "Target", pos: Optional[int], title: str, explanation: str = "",
            fixes: Tuple[Fix, ...] = (), edits: Tuple[Edit, ...] = (), severity: Optional[Severity] = None,
            evidence: Tuple[Evidence, ...] = ()) -> Hit:
        line = col = None
        if pos is not None:
            line, col = target.linecol(pos)
        f = Finding(self.name, severity or self.severity, title, explanation or self.why, evidence, fixes,
                    self.section, target.path, line, col)
        return Hit(f, edits)


REGISTRY: Dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if rule.name in REGISTRY:
        raise ValueError(f"duplicate lint rule {rule.name}")
    REGISTRY[rule.name] = rule
    return rule


# Another kind's form of a registered name (one name, one code): e.g. a config rule applied to a ds_config dict
# written inside a Python script. Documented and tested with the registered rule.
VARIANTS: List[Rule] = []


def register_variant(rule: Rule) -> Rule:
    if rule.name not in REGISTRY:
        raise ValueError(f"variant of an unregistered lint rule {rule.name}")
    VARIANTS.append(rule)
    return rule


def rules_for(kind: Kind) -> Iterator[Rule]:
    import importlib

    importlib.import_module("dsdoctor.lint.all_rules")  # imports every rule module once

    return (r for r in [*REGISTRY.values(), *VARIANTS] if r.kind == kind)
