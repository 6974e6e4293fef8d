"""Every cause explain can name, in one explicit tuple (each area module's ``SPECS``), and what is derived
from it: the scanner's signature table, the lookup by name, the catalog entries, the causes an environment
check confirms. Importing this has no side effects beyond building these tuples."""

from __future__ import annotations

from dataclasses import replace
from typing import Dict, Tuple

from . import (
    build,
    config,
    distributed,
    generic,
    install,
    launch,
    loading,
    model_types,
    op_build,
    pinned,
    ranks,
    regressions,
    resources,
    training,
    trl_config,
    versions,
    zero3_params,
    zero_runtime,
)
from .cause import Cause, Signature

# Order matters twice: a line is given to the first signature that matches it (causes before symptoms before
# notes, areas in this order), and equal-rank causes are reported in log order.
CAUSES: Tuple[Cause, ...] = (distributed.SPECS + build.SPECS + op_build.SPECS + install.SPECS + loading.SPECS
                             + zero3_params.SPECS + zero_runtime.SPECS + config.SPECS + training.SPECS + trl_config.SPECS + launch.SPECS
                             + ranks.SPECS + versions.SPECS + regressions.SPECS + model_types.SPECS + pinned.SPECS + resources.SPECS + generic.SPECS)

BY_NAME: Dict[str, Cause] = {c.name: c for c in CAUSES}


def _signatures() -> Tuple[Signature, ...]:
    named = [replace(s, name=c.name) for c in CAUSES for s in c.signatures if not s.frame]
    causes = [s for s in named if not s.symptom and not s.note]
    return tuple(causes + [s for s in named if s.symptom] + [s for s in named if s.note and not s.symptom])


SIGNATURES: Tuple[Signature, ...] = _signatures()  # line signatures (the scanner's)
FRAME_SIGNATURES: Tuple[Signature, ...] = tuple(replace(s, name=c.name) for c in CAUSES for s in c.signatures if s.frame)

# causes an environment check can confirm (`explain --env` merges check's finding of the same name)
ENV_CAUSES: Tuple[str, ...] = tuple(c.name for c in CAUSES if c.predicted_by == f"check:{c.name}")


def all_signatures() -> Tuple[Signature, ...]:
    """The line signatures of every cause, in the scanner's order (``explain/match.py`` reads them here)."""
    return SIGNATURES


def cause(name: str) -> Cause:
    """The spec of a cause name (KeyError when explain has none)."""
    return BY_NAME[name]
