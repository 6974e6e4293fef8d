"""Version parsing and ranges shared by the knowledge modules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Optional, Sequence, Tuple, TypeVar

from packaging.version import InvalidVersion, Version

T = TypeVar("T")


def parse(text: Optional[str]) -> Optional[Version]:
    """Parse a version string leniently (``0.19.8+abc`` -> 0.19.8); ``None`` when unparseable."""
    if not text:
        return None
    try:
        v = Version(text.strip())
    except InvalidVersion:
        return None
    return Version(v.base_version)


def v(text: str) -> Version:
    """Parse a version literal written in the knowledge tables (must be valid)."""
    return Version(text)


@dataclass(frozen=True)
class Span(Generic[T]):
    """``value`` holds for versions in [lo, hi] (either end open when None)."""

    lo: Optional[str]
    hi: Optional[str]
    value: T

    def contains(self, ver: Version) -> bool:
        if self.lo is not None and ver < Version(self.lo):
            return False
        if self.hi is not None and ver > Version(self.hi):
            return False
        return True


def lookup(spans: Sequence[Span[T]], ver: Version, default: T) -> T:
    """The value of the first span that contains ``ver``."""
    for span in spans:
        if span.contains(ver):
            return span.value
    return default


def major_minor(text: Optional[str]) -> Optional[Tuple[int, int]]:
    """``"12.1.105"`` -> (12, 1); ``None`` when not of that form."""
    if not text:
        return None
    parts = text.strip().split(".")
    if len(parts) < 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None
