"""What NumPy 2.0 removed from the ``numpy`` namespace, and which releases of DeepSpeed, Transformers, Accelerate,
PEFT, TRL and torch use those names (``data/numpy2.json.gz``, made by ``scripts/upstream/derive_numpy.py`` from the
numpy 1.26.4 and 2.0.0 wheels and the releases ``scripts/upstream/releases.py`` unpacked; see docs/upstream-data.md).
Loaded on first use only."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from packaging.version import InvalidVersion, Version

from . import derived_data

DATA = derived_data.path("numpy2.json.gz")


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"names": {}, "uses": {}, "removed_in": "", "last_before": ""})


@dataclass(frozen=True)
class Removal:
    """``numpy.<name>``, gone in ``removed_in`` (``last_before`` has it), with NumPy's migration note."""

    name: str
    removed_in: str
    last_before: str
    note: str


@dataclass(frozen=True)
class Use:
    """The releases read of ``consumer`` that use the name (``first``-``last``), and the next release read, which no
    longer does (``fixed``, "" when the newest release read still does); ``at``: a module that uses it."""

    consumer: str
    first: str
    last: str
    fixed: str
    at: str


def removed(name: str) -> Optional[Removal]:
    """The removal of ``numpy.<name>`` in NumPy 2.0, or None when 2.0 kept it (or the data is missing)."""
    d = _data()
    if name not in d["names"]:
        return None
    return Removal(name, d["removed_in"], d["last_before"], d["names"][name])


def uses(name: str) -> List[Use]:
    """Every consumer read whose releases use ``numpy.<name>`` (one contiguous run of releases each; a consumer
    whose use comes and goes is left out: which side a release is on would be a guess)."""
    out: List[Use] = []
    for consumer, u in sorted(_data()["uses"].items()):
        idx = u["names"].get(name)
        if not idx or idx != list(range(idx[0], idx[-1] + 1)):
            continue
        rel = u["releases"]
        fixed = rel[idx[-1] + 1] if idx[-1] + 1 < len(rel) else ""
        out.append(Use(consumer, rel[idx[0]], rel[idx[-1]], fixed, u["at"].get(name, "")))
    return out


def before(version: str, bound: str) -> Optional[bool]:
    """Whether ``version`` is older than ``bound`` (None when either does not parse)."""
    try:
        return Version(version) < Version(bound)
    except InvalidVersion:
        return None
