"""Every finding name dsdoctor can emit, with its short code and one-line summary, derived from the specs
(``dsdoctor.specs``: the check, lint, explain, estimate, smoke and multi-node modules that emit them).

Names are a public contract: never rename or reuse one. Codes are stable too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, Mapping


@dataclass(frozen=True)
class RuleInfo:
    code: str
    summary: str


class Catalog(Mapping[str, RuleInfo]):
    """name -> :class:`RuleInfo`, read from ``specs.FAMILIES`` one family at a time: a lookup imports the families
    up to the one that has the name (check's names are in the first), iterating imports them all."""

    def __init__(self) -> None:
        self._got: Dict[str, RuleInfo] = {}
        self._read = 0

    def _next(self) -> bool:
        from .specs import FAMILIES

        if self._read == len(FAMILIES):
            return False
        for s in FAMILIES[self._read]():
            info = RuleInfo(s.code, s.summary)
            if self._got.setdefault(s.name, info) != info:
                raise ValueError(f"{s.name}: two codes or summaries ({self._got[s.name]} and {info})")
        self._read += 1
        return True

    def __getitem__(self, name: str) -> RuleInfo:
        while name not in self._got:
            if not self._next():
                raise KeyError(name)
        return self._got[name]

    def _all(self) -> Dict[str, RuleInfo]:
        while self._next():
            pass
        return self._got

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


RULES: Mapping[str, RuleInfo] = Catalog()


def code_for(name: str) -> str:
    """The short code of a finding name (``DS000`` for names not in the catalog)."""
    info = RULES.get(name)
    return info.code if info else "DS000"
