"""The defaults of DeepSpeed's ``zero_optimization`` fields per release (``data/zero_defaults.json.gz``, made by
``scripts/upstream/derive_zero_defaults.py`` from the released sdists; see docs/upstream-data.md): what a run gets
for a key its config leaves out (``reduce_bucket_size`` 500000000, ``contiguous_gradients`` true), so a setting that
is dropped but says the default loses nothing. Loaded on first use, then cached; answers only about the releases
read, and only for literal defaults (``overlap_comm``'s, which a validator sets by stage, is not one).
"""

from __future__ import annotations

import functools
import json
from typing import Any, Dict, Tuple

from . import derived_data
from .release_spans import Span

DATA = derived_data.path("zero_defaults.json.gz")
_NONE = object()


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"releases": [], "defaults": {}, "aliases": {}, "provenance": {}})


def releases() -> Tuple[str, ...]:
    """The DeepSpeed releases read, oldest first."""
    return tuple(_data()["releases"])


def default(key: str, ds: str) -> Tuple[bool, object]:
    """(known, value): the default DeepSpeed ``ds`` gives ``zero_optimization.<key>`` (an alias such as
    ``stage3_prefetch_bucket_size`` names its field); known is False where no release read around ``ds`` says one
    literal default (outside the releases read, neighbours that disagree, a computed default)."""
    d = _data()
    field = d["aliases"].get(key, key)
    for text, span in d["defaults"].get(field, {}).items():
        if Span.of("deepspeed", releases(), span).has(ds):
            return True, json.loads(text)
    return False, _NONE


def same_as_default(key: str, value: object, ds: str) -> bool:
    """Does ``value`` (as a config or YAML gives it: ``5e8``, ``"5e8"``, ``true``) equal the default of
    ``zero_optimization.<key>`` on DeepSpeed ``ds``?"""
    known, want = default(key, ds)
    if not known:
        return False
    if isinstance(want, bool) or isinstance(value, bool):
        return str(value).lower() == str(want).lower()  # True / "true" / "True" alike
    if isinstance(want, (int, float)):
        try:
            return float(str(value)) == float(want)
        except ValueError:
            return False
    return value == want


def provenance() -> Dict[str, Any]:
    """How the data was made (script, releases read with their archives' sha256, date, how to refresh)."""
    return _data()["provenance"]  # type: ignore[no-any-return]
