"""The keyword arguments the HF Trainer hands a ``TrainerCallback``'s ``on_*`` methods, per Transformers release
(``data/callback_kwargs.json.gz``, made by ``scripts/upstream/derive_callback_kwargs.py`` from the released wheels;
see docs/upstream-data.md): ``model``, ``optimizer``, ``logs``, ``metrics``, ... and never ``trainer``, so a callback
that takes the trainer from ``kwargs.get("trainer")`` gets None. Loaded on first use, then cached; answers only about
the releases read.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Tuple

from . import derived_data
from .release_spans import Span, decode

DATA = derived_data.path("callback_kwargs.json.gz")
CALLBACK_BASE = "TrainerCallback"  # transformers.TrainerCallback: the class whose on_* methods the Trainer calls


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"releases": [], "keys": {}, "open": "", "provenance": {}})


def releases() -> Tuple[str, ...]:
    """The Transformers releases read, oldest first."""
    return tuple(_data()["releases"])


def span(key: str) -> Optional[Span]:
    """The releases read whose Trainer passes ``key`` to callbacks (None: no release read passes it)."""
    text = _data()["keys"].get(key)
    return Span.of("transformers", releases(), text) if text else None


def never_passed(key: str) -> Optional[str]:
    """Where no release read passes ``key`` to a callback's ``on_*`` methods (and none passes keys it does not name):
    the releases read, as ``transformers 4.0.0–5.24.0``; None where some release passes it, or nothing was read."""
    read = releases()
    if not read or span(key) is not None or decode(_data()["open"]):
        return None
    return f"transformers {read[0]}–{read[-1]}"


def provenance() -> Dict[str, Any]:
    """How the data was made (script, releases read with their archives' sha256, date, how to refresh)."""
    return _data()["provenance"]  # type: ignore[no-any-return]
