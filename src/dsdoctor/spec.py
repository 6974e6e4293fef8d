"""The shape of one finding name: :class:`FindingSpec` (name, code, summary, What / Why / Fix, examples), written
once in the module that emits the finding. Lint rules (``lint.rule.Rule``) and explain's causes
(``explain.causes.spec.Cause``) carry the same name / code / summary (:class:`Named`); ``dsdoctor.specs``
collects them all, and ``catalog`` and ``ruledocs`` are derived from that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Optional, Tuple

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


if TYPE_CHECKING:  # typing only: building a Protocol class costs import time on every command
    from typing import Protocol

    class Named(Protocol):
        """What every spec of a finding name has (a :class:`FindingSpec`, a lint ``Rule``, an explain ``Cause``)."""

        @property
        def name(self) -> str: ...

        @property
        def code(self) -> str: ...

        @property
        def summary(self) -> str: ...


@dataclass(frozen=True)
class Form:
    """Another command's form of a name whose spec (``of``) is elsewhere, e.g. ``check``'s environment form of a
    lint rule: adds the command, its examples and a note to that name's docs."""

    of: "Named"
    command: str
    examples: Tuple[RuleExample, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class FindingSpec:
    """One finding name a run-time command emits (check, verify, estimate, smoke, multi-node): its public name
    and code, usual severity, one-line summary, What / Why / Fix (markdown prose) and docs examples.
    ``commands[0]`` owns it (its docs/rules.md group); ``kind`` is what the finding is read from
    (``environment``, ``model``, ``run``, ``nodes``)."""

    name: str
    code: str
    severity: Severity
    summary: str
    commands: Tuple[str, ...]
    kind: str
    what: str
    why: str
    fix: str
    examples: Tuple[RuleExample, ...] = ()
    section: str = "general"

    def finding(self, severity: Severity, title: str, explanation: Optional[str] = None,
                evidence: Tuple[Evidence, ...] = (), fixes: Tuple[Fix, ...] = (), section: Optional[str] = None,
                path: Optional[str] = None, line: Optional[int] = None, col: Optional[int] = None) -> Finding:
        """A finding of this name (``Finding``'s arguments less the name); the explanation is the spec's Why
        unless the case has its own."""
        return Finding(self.name, severity, title, self.why if explanation is None else explanation, evidence, fixes,
                       section or self.section, path, line, col)


def case(name: str, situation: str) -> RuleExample:
    """A docs example that is the ``dsdoctor check`` fixture ``tests/cases/check/<name>.toml``."""
    return RuleExample("check", situation, source="tests/cases/check/" + name + ".toml")


def log(name: str, situation: str, text: str) -> RuleExample:
    """A docs example that is an excerpt of the fixture log ``tests/cases/explain/<name>.log``."""
    return RuleExample("log", situation, text, source="tests/cases/explain/" + name + ".log")
