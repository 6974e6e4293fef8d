"""``dsdoctor rules`` (every finding name) and ``dsdoctor rule NAME`` (one rule's docs); both print their own
output (``rendered``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import Outcome


@dataclass
class Options:
    """``rules``' options: ``fmt`` text or json, ``command`` keeps the names one command reports."""

    fmt: str = "text"
    command: Optional[str] = None


@dataclass
class RuleOptions:
    """``rule``'s options: ``name`` a finding name or code, ``fmt`` text or json."""

    name: str = ""
    fmt: str = "text"


def run(o: Options) -> Outcome:
    """List the rules."""
    from ..ruledocs.cli import run_rules

    return Outcome(None, run_rules(o.fmt, o.command), rendered=True)


def run_one(o: RuleOptions) -> Outcome:
    """Print one rule's What / Why / Example / Fix; an unknown name raises UnknownRule (a UsageError)."""
    from ..ruledocs.cli import run_rule

    return Outcome(None, run_rule(o.name, o.fmt), rendered=True)
