"""Every finding name's spec, read from the modules that emit them: explicit lists, nothing registers itself.

A name has exactly one spec that owns it (its code, summary, What / Why / Fix): a :class:`~dsdoctor.spec.FindingSpec`
(check, verify, estimate, smoke, multi-node), a lint ``Rule``, or an explain ``Cause`` with docs. Other commands'
forms of a name (an explain ``Cause`` without docs, check's ``Form`` of a lint rule) take its name, code and summary
from that spec. ``catalog`` and ``ruledocs`` are derived from these lists.

The lists are grouped by command family, each imported on first use: the catalog reads families until it finds
a name, those whose module the running command already imported first, so ``dsdoctor check`` (whose names are
all in check's family) imports no lint rule or smoke code and ``dsdoctor lint`` no check or probe code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, List, Tuple, Union

if TYPE_CHECKING:
    from .explain.causes.spec import Cause
    from .lint.rule import Rule
    from .spec import FindingSpec, Form, Named

    Spec = Union[FindingSpec, Rule, Cause]


def check_family() -> Tuple["Named", ...]:
    """check / verify: the environment checks and the lint rules check reports a form of."""
    from .checks.rules import FORMS, SPECS

    return (*SPECS, *(f.of for f in FORMS))


def explain_family() -> Tuple["Named", ...]:
    """Every explain cause (``verify``'s op-build-failed and ``launch``'s launch-failed among them)."""
    from .explain.causes.registry import CAUSES

    return CAUSES


def lint_family() -> Tuple["Rule", ...]:
    """Every lint rule (``lint.all_rules``)."""
    from .lint.all_rules import RULES

    return RULES


def runtime_specs() -> Tuple["FindingSpec", ...]:
    """The run-time commands' own specs: check's, estimate's, smoke's, multi-node's."""
    from .checks.rules import SPECS

    return SPECS + estimate_family() + smoke_family() + multinode_family()


def estimate_family() -> Tuple["FindingSpec", ...]:
    from .estimate.core import SPECS

    return SPECS


def smoke_family() -> Tuple["FindingSpec", ...]:
    from .smoke.checks import SPECS

    return SPECS


def multinode_family() -> Tuple["FindingSpec", ...]:
    from .multinode import SPECS

    return SPECS


# (the module a family's specs are in, the family): every name is in one of them
FAMILIES: Tuple[Tuple[str, Callable[[], Tuple["Named", ...]]], ...] = (
    ("dsdoctor.checks.rules", check_family), ("dsdoctor.explain.causes.registry", explain_family),
    ("dsdoctor.lint.all_rules", lint_family),
    ("dsdoctor.estimate.core", estimate_family), ("dsdoctor.smoke.checks", smoke_family),
    ("dsdoctor.multinode", multinode_family))


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
