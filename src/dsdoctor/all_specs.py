"""Every finding name's spec, read from the modules that emit them: explicit lists, nothing registers itself.

A name has exactly one spec (a :class:`~dsdoctor.spec.FindingSpec`: severity, summary, What / Why / Fix), held
by the family the names table (:mod:`dsdoctor.names`) says owns it: check's environment checks, a lint ``Rule``,
an explain ``Cause`` (verify's op-build-failed and launch's launch-failed among them), estimate's, smoke's,
multi-node's. Other commands' forms of a name (check's ``Form`` of a lint rule, an explain ``Cause`` without a
spec) name it and add examples. ``catalog`` and ``ruledocs`` are derived from these lists.

Each family is imported on first use, so a lookup of one name (``catalog.RULES[name]``) imports only its owner's
family: ``dsdoctor check`` imports no lint rule or smoke code, ``dsdoctor lint`` no check or probe code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, List, Tuple

if TYPE_CHECKING:
    from .spec import FindingSpec, Form


def check_family() -> Tuple["FindingSpec", ...]:
    """check's environment checks."""
    from .checks.all_checks import SPECS

    return SPECS


def explain_family() -> Tuple["FindingSpec", ...]:
    """Every explain cause explain owns (``verify``'s op-build-failed and ``launch``'s launch-failed among them)."""
    from .explain.causes.registry import CAUSES

    return tuple(c.spec for c in CAUSES if c.spec is not None)


def lint_family() -> Tuple["FindingSpec", ...]:
    """Every lint rule's spec (``lint.all_rules``)."""
    from .lint.all_rules import RULES

    return tuple(r.spec for r in RULES)


def estimate_family() -> Tuple["FindingSpec", ...]:
    from .estimate.core import SPECS

    return SPECS


def smoke_family() -> Tuple["FindingSpec", ...]:
    from .smoke.checks import SPECS

    return SPECS


def multinode_family() -> Tuple["FindingSpec", ...]:
    from .multinode import SPECS

    return SPECS


# the owner of a name (``names.owner``) -> the family that holds its spec
FAMILIES: Dict[str, Callable[[], Tuple["FindingSpec", ...]]] = {
    "check": check_family, "verify": explain_family, "launch": explain_family, "explain": explain_family,
    "lint": lint_family, "estimate": estimate_family, "smoke": smoke_family, "multinode": multinode_family}


def owners() -> List["FindingSpec"]:
    """The one spec of every name, family by family (a test checks that no name has two)."""
    seen: List[Callable[[], Tuple["FindingSpec", ...]]] = []
    out: List["FindingSpec"] = []
    for fam in FAMILIES.values():
        if fam not in seen:
            seen.append(fam)
            out += fam()
    return out


def forms() -> List["Form"]:
    """Every other command's form of a name: check's forms of lint rules, then explain's log examples of names
    another command owns."""
    from .checks.all_checks import FORMS
    from .explain.causes.registry import CAUSES
    from .spec import Form

    return [*FORMS, *(Form(c.name, "explain", c.log_examples) for c in CAUSES if c.spec is None and c.log_examples)]
