"""Sets of releases, as the derived upstream data stores them: index ranges into one package's list of releases
read (``"0-4,7-9"``), and their description for a user ("accelerate 0.15.0-0.34.2"). No I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from packaging.version import InvalidVersion, Version


def encode(indices: Sequence[int]) -> str:
    """``[0, 1, 2, 4]`` -> ``"0-2,4"`` (indices sorted, unique)."""
    out: List[str] = []
    run: List[int] = []
    for i in sorted(set(indices)):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [i]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


def decode(text: str) -> Tuple[Tuple[int, int], ...]:
    """``"0-2,4"`` -> ``((0, 2), (4, 4))``."""
    spans = []
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        spans.append((int(lo), int(hi or lo)))
    return tuple(spans)


@dataclass(frozen=True)
class Span:
    """The releases of ``package`` (``read``: every release read, oldest first) that have something."""

    package: str
    read: Tuple[str, ...]
    ranges: Tuple[Tuple[int, int], ...]

    @classmethod
    def of(cls, package: str, read: Sequence[str], text: str) -> "Span":
        return cls(package, tuple(read), decode(text))

    def has(self, version: str) -> Optional[bool]:
        """Whether ``version`` has it: exact for a release read; for one between two releases read, the answer of
        both when they agree; None when unknown (outside the releases read, or the neighbours disagree)."""
        try:
            ver = Version(version)
        except InvalidVersion:
            return None
        vers = [Version(v) for v in self.read]
        if not vers or ver < vers[0] or ver > vers[-1]:
            return None
        inside = {i for lo, hi in self.ranges for i in range(lo, hi + 1)}
        below = max(i for i, v in enumerate(vers) if v <= ver)
        if vers[below] == ver:
            return below in inside
        above = below + 1
        return (below in inside) if (below in inside) == (above in inside) else None

    def first(self) -> Optional[str]:
        return self.read[self.ranges[0][0]] if self.ranges else None

    def last(self) -> Optional[str]:
        return self.read[self.ranges[-1][1]] if self.ranges else None

    def removed_in(self) -> Optional[str]:
        """The first release read after the last one that has it (None when the newest release read has it)."""
        if not self.ranges or self.ranges[-1][1] + 1 >= len(self.read):
            return None
        return self.read[self.ranges[-1][1] + 1]

    def added_in(self) -> Optional[str]:
        """The first release read that has it, when an older release read lacks it."""
        return self.read[self.ranges[0][0]] if self.ranges and self.ranges[0][0] > 0 else None

    def describe(self) -> str:
        """``"accelerate 0.15.0-0.34.2, 1.2.0"``."""
        parts = [self.read[lo] if lo == hi else f"{self.read[lo]}-{self.read[hi]}" for lo, hi in self.ranges]
        return f"{self.package} {', '.join(parts)}" if parts else f"no {self.package} release read"
