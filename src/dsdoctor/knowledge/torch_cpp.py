"""Which C++ function of torch raises a few common messages that carry no source location ("The size of tensor a
(70) must match the size of tensor b (69) ...", "Cannot copy out of meta tensor; no data!"). Derived by running real
torch releases with c10's C++ stack traces on (``scripts/upstream/derive_torch_cpp.py``,
``data/torch_cpp.json.gz``): each row says the releases that raised it there. Loaded on first use."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from . import derived_data

DATA = derived_data.path("torch_cpp.json.gz")
# the exception line's prefix: a rank tag, the class (torch's Python classes for C++ errors, or Python's own)
_PREFIX = re.compile(r"^.{0,200}?\b(?:torch\.\w+(?:\.\w+)*\.)?(?:RuntimeError|NotImplementedError|ValueError|IndexError|"
                     r"TypeError|OutOfMemoryError|AcceleratorError):\s?")


@dataclass(frozen=True)
class CppMessage:
    """One message: its template (``{}`` for each value), the exception class, the C++ function and file
    (``aten/src/ATen/ExpandUtils.cpp``) and the torch releases run that raised it there."""

    template: str
    kind: str
    function: str
    file: str
    releases: Tuple[str, ...]

    def describe(self) -> str:
        """``run on torch 2.13.0, 2.14.1``: the releases that raised it there."""
        return f"run on torch {', '.join(self.releases)}"


@functools.lru_cache(maxsize=1)
def _rows() -> Tuple[Tuple["re.Pattern[str]", CppMessage], ...]:
    rows: List[Dict[str, Any]] = derived_data.load(DATA, {"rows": []})["rows"]
    return tuple((re.compile(r".{1,200}?".join(re.escape(p) for p in r["template"].split("{}")) + r"\s*\Z"),
                  CppMessage(r["template"], r["kind"], r["function"], r["file"], tuple(r["releases"])))
                 for r in rows)


def provenance() -> Dict[str, Any]:
    """How the data was made: the script, the torch releases run (version, git revision), the date."""
    return derived_data.load(DATA, {"provenance": {}})["provenance"]  # type: ignore[no-any-return]


def lookup(line: str) -> Optional[CppMessage]:
    """The message an exception line shows (its class the one torch raises it as, the whole message: a message
    another function extends, e.g. torch's ``Module.to`` adding ``Please use ... to_empty()``, is that one's), or None."""
    m = _PREFIX.match(line.strip())
    if m is None:
        return None
    text = line.strip()[m.end():]
    for regex, row in _rows():
        if regex.match(text) and line.strip()[:m.end()].rstrip().rstrip(":").endswith(row.kind):
            return row
    return None
