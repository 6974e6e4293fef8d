"""The model types each Transformers release read maps to a config class (``data/model_types.json.gz``, made by
``scripts/upstream/derive_model_types.py`` from ``CONFIG_MAPPING_NAMES`` in the released wheels; see
docs/upstream-data.md): "model type X not recognized" answered with the first release that has X. Loaded on first
use, then cached; answers only about the releases read (None outside them).
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Tuple

from . import derived_data
from .release_spans import Span

DATA = derived_data.path("model_types.json.gz")


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"releases": [], "types": {}, "provenance": {}})


def releases() -> Tuple[str, ...]:
    """The Transformers releases read, oldest first."""
    return tuple(_data()["releases"])


def span(model_type: str) -> Optional[Span]:
    """The Transformers releases read that map ``model_type`` (None: no release read has it)."""
    text = _data()["types"].get(model_type)
    return Span.of("transformers", releases(), text) if text else None


def provenance() -> Dict[str, Any]:
    """How the data was made (script, releases read with their archives' sha256, date, how to refresh)."""
    return _data()["provenance"]  # type: ignore[no-any-return]
