"""Ranges the project's other pins imply for a package it does not pin (issue 18): ``huggingface-hub==0.17.3``
without transformers installs only the transformers releases that allow hub 0.17.3 (at most 4.35.2). From the
releases' own requirements (knowledge/requires.py, derived from their metadata); the exact pins of
huggingface-hub and tokenizers (``pin_files.CONSTRAINING``) and of the packages lint reads count, each way (a
pinned TRL's ``transformers>=4.31.0`` too)."""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from ..knowledge.requires import constrained, installable
from .pin_files import Pin

_JUDGED = ("transformers", "accelerate", "peft", "trl")


def _span(ok: Tuple[str, ...], every: Tuple[str, ...]) -> str:
    """The specifier of the releases ``ok`` among ``every`` (from the oldest allowed to the newest)."""
    low = f">={ok[0]}" if ok[0] != every[0] else ""
    high = f"<={ok[-1]}" if ok[-1] != every[-1] else ""
    return ",".join(x for x in (low, high) if x)


def implied(sole: Dict[str, Tuple[str, Pin]], unpinned: Sequence[str]) -> List[Tuple[str, str, str, Pin]]:
    """(package, specifier, what implies it, the pin written there) for each package of ``unpinned`` whose releases
    the exact pins narrow (``sole``: package -> the release its one exact pin names, and that pin)."""
    out: List[Tuple[str, str, str, Pin]] = []
    for pkg in unpinned:
        if pkg not in _JUDGED or not constrained(pkg):
            continue
        others = {d: v for d, (v, _) in sole.items() if d != pkg}
        ok, every = installable(pkg, others), installable(pkg, {})
        if not ok or len(ok) == len(every):
            continue
        by = [d for d in sorted(others) if len(installable(pkg, {d: others[d]})) < len(every)]
        if by:
            out.append((pkg, _span(ok, every), ", ".join(f"{d}=={others[d]}" for d in by), sole[by[0]][1]))
    return out
