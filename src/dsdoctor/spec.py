"""The one declaration shape of a finding name: :class:`FindingSpec` (name, severity, summary and its
:class:`Docs`: What / Why / Fix, examples, what it is read from), written once in the module that emits the
finding; its code comes from the names table (:mod:`dsdoctor.names`). A lint ``Rule`` and an explain ``Cause``
hold one; ``dsdoctor.all_specs`` collects them all, and ``catalog`` and ``ruledocs`` are derived from that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional, Tuple

from . import names
from .model import Evidence, Finding, Fix, Severity

# How a docs example is executed (``tests/test_ruledocs.py``):
# lint      a lint rule's own invalid example (tests/test_lint_rules.py runs it)
# log       ``text`` is a log excerpt: the test runs `dsdoctor explain` on it and wants the name diagnosed
# check     ``source`` is a tests/cases/check/*.toml fixture whose [expect] names it (tests/test_check_cases.py runs it)
# facts     ``data`` (JSON) replaces facts of a real `collect()` before `checks.evaluate` (a limit a test cannot change)
# estimate  ``text`` is a `dsdoctor estimate` command line the test runs
# smoke     ``data`` (JSON) is a smoke run's exit status, rank events and config fed to `smoke.checks.report`
# nodes     ``data`` (JSON) is per-node fingerprints fed to `multinode.diff.drift_findings`
# verify    ``text`` is an op's build log fed to `verify.diagnose` (which also runs `dsdoctor check` here)
# command   ``data`` (JSON: argv, files) is a dsdoctor command line the test runs in a temporary directory
#           (``{python}`` = the test's interpreter); ``text`` shows it
# none      not executable here; ``untested`` says why (and what does test it)
ExampleKind = Literal["lint", "log", "check", "facts", "verify", "estimate", "smoke", "nodes", "command", "none"]


@dataclass(frozen=True)
class RuleExample:
    """One docs example of a finding name (docs/rules.md, ``dsdoctor rule NAME``)."""

    kind: ExampleKind
    situation: str  # prose: the environment, the config, the command line, what happened
    text: str = ""  # shown verbatim: a log excerpt, a file, a command line
    source: str = ""  # the fixture it comes from or is checked against (repository-relative path)
    data: str = ""  # JSON input for the real code (kind facts / smoke / nodes)
    untested: str = ""  # why it is not executed


@dataclass(frozen=True)
class Docs:
    """What / Why / Fix (markdown prose) and examples of one finding name (docs/rules.md, ``dsdoctor rule NAME``;
    the examples are its tests), and what the finding is read from (``reads``: ``environment``, ``model``,
    ``run``, ``nodes``, ``log``, or the lint file kind ``ds_config`` / ``python`` / ``shell`` / ...)."""

    what: str
    why: str
    fix: str
    examples: Tuple[RuleExample, ...] = ()
    reads: str = "environment"


@dataclass(frozen=True)
class FindingSpec:
    """The one declaration shape of a finding name, written once in the module that emits it: its public name
    (a constant of :mod:`dsdoctor.names`, which also holds its code), usual severity, one-line summary and
    :class:`Docs`. ``commands`` report it (``commands[0]`` owns its docs/rules.md group; default: the owner in
    the names table); ``section`` groups it in text output. A lint ``Rule`` and an explain ``Cause`` hold one."""

    name: str
    severity: Severity
    summary: str
    docs: Docs
    commands: Tuple[str, ...] = ()
    section: str = "general"

    def __post_init__(self) -> None:
        if not self.commands:
            object.__setattr__(self, "commands", (names.owner(self.name),))

    @property
    def code(self) -> str:
        """The short code, from the names table."""
        return names.code(self.name)

    @property
    def why(self) -> str:
        return self.docs.why

    def finding(self, severity: Optional[Severity] = None, title: str = "", explanation: Optional[str] = None,
                evidence: Tuple[Evidence, ...] = (), fixes: Tuple[Fix, ...] = (), section: Optional[str] = None,
                path: Optional[str] = None, line: Optional[int] = None, col: Optional[int] = None) -> Finding:
        """A finding of this name (``Finding``'s arguments less the name; the severity defaults to the spec's);
        the explanation is the spec's Why unless the case has its own."""
        return Finding(self.name, severity or self.severity, title or self.summary,
                       self.docs.why if explanation is None else explanation, evidence, fixes,
                       section or self.section, path, line, col)


@dataclass(frozen=True)
class Form:
    """Another command's form of a name whose spec is elsewhere (``of``: the name, a :mod:`dsdoctor.names`
    constant), e.g. ``check``'s environment form of a lint rule: adds the command, its examples and a note to
    that name's docs."""

    of: str
    command: str
    examples: Tuple[RuleExample, ...] = ()
    note: str = ""


def case(name: str, situation: str) -> RuleExample:
    """A docs example that is the ``dsdoctor check`` fixture ``tests/cases/check/<name>.toml``."""
    return RuleExample("check", situation, source="tests/cases/check/" + name + ".toml")


def log(name: str, situation: str, text: str) -> RuleExample:
    """A docs example that is an excerpt of the fixture log ``tests/cases/explain/<name>.log``."""
    return RuleExample("log", situation, text, source="tests/cases/explain/" + name + ".log")
