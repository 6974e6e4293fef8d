"""Every finding name's spec, read from the modules that emit them: explicit lists, nothing registers itself.

A name has exactly one spec that owns it (its code, summary, What / Why / Fix): a :class:`~dsdoctor.spec.FindingSpec`
(check, verify, estimate, smoke, multi-node), a lint ``Rule``, or an explain ``Cause`` with docs. Other commands'
forms of a name (an explain ``Cause`` without docs, check's ``Form`` of a lint rule) take its name, code and summary
from that spec. ``catalog`` and ``ruledocs`` are derived from these lists.

The lists are grouped by command family, each imported on first use: the catalog reads the families in order
until it finds a name, so ``dsdoctor check`` (whose names are all in the first) imports no lint rule or smoke code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, List, Tuple, Union

if TYPE_CHECKING:
    from .explain.causes.spec import Cause
    from .lint.rule import Rule
    from .spec import FindingSpec, Form, Named

    Spec = Union[FindingSpec, Rule, Cause]


def check_family() -> Tuple["Named", ...]:
    """check / verify / explain / launch: the environment checks, the lint rules check reports a form of, and
    every explain cause (all on check's and explain's import path anyway)."""
    from .checks.rules import FORMS, SPECS
    from .explain.causes.registry import CAUSES

    return (*SPECS, *(f.of for f in FORMS), *CAUSES)


def lint_family() -> Tuple["Rule", ...]:
    """Every lint rule (``lint.all_rules``)."""
    from .lint.all_rules import RULES

    return RULES


def runtime_specs() -> Tuple["FindingSpec", ...]:
    """The run-time commands' own specs: check's, estimate's, smoke's, multi-node's."""
    from .checks.rules import SPECS as CHECK
    from .estimate.core import SPECS as ESTIMATE
    from .multinode import SPECS as MULTINODE
    from .smoke.checks import SPECS as SMOKE

    return CHECK + ESTIMATE + SMOKE + MULTINODE


def run_family() -> Tuple["FindingSpec", ...]:
    """estimate, smoke, multi-node."""
    return tuple(s for s in runtime_specs() if s.commands[0] not in ("check", "verify"))


FAMILIES: Tuple[Callable[[], Tuple["Named", ...]], ...] = (check_family, lint_family, run_family)


def owners() -> List["Spec"]:
    """The one spec of every name: run-time specs, lint rules, explain causes with docs (a test checks that no
    name has two)."""
    from .explain.causes.registry import CAUSES

    return [*runtime_specs(), *lint_family(), *(c for c in CAUSES if c.docs is not None)]


def forms() -> List[Tuple[str, "Form"]]:
    """(name, form) for every other command's form of a name: check's forms of lint rules, then explain's log
    examples of names another command owns."""
    from .checks.rules import FORMS
    from .explain.causes.registry import CAUSES
    from .spec import Form

    out = [(f.of.name, f) for f in FORMS]
    return out + [(c.name, Form(c, "explain", c.log_examples)) for c in CAUSES if c.docs is None and c.log_examples]
