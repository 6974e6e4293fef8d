"""The data types of rule docs: one :class:`Entry` per finding name (written in ``env.py``, ``explain.py``,
``runtime.py``, ``multinode.py``) with its :class:`RuleExample` list. An example is executed by
``tests/test_ruledocs.py`` according to its ``kind``; ``untested`` says why one cannot be."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Tuple

from ..model import Severity

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
    kind: ExampleKind
    situation: str  # prose: the environment, the config, the command line, what happened
    text: str = ""  # shown verbatim: a log excerpt, a file, a command line
    source: str = ""  # the fixture it comes from or is checked against (repository-relative path)
    data: str = ""  # JSON input for the real code (kind facts / smoke / nodes)
    untested: str = ""  # why it is not executed


@dataclass(frozen=True)
class Entry:
    """One name's docs. ``commands[0]`` owns it (the docs/rules.md group)."""

    name: str
    severity: Severity
    commands: Tuple[str, ...]
    kind: str
    what: str
    why: str
    fix: str
    examples: Tuple[RuleExample, ...]


@dataclass(frozen=True)
class Also:
    """Another command's form of a name documented elsewhere (a lint name that ``explain`` also finds in a log,
    an environment name that lint also reports): adds the command and its examples to that name's docs."""

    name: str
    command: str
    examples: Tuple[RuleExample, ...]
    note: str = ""
