"""Every finding name dsdoctor can emit, with its short code and one-line summary, derived from the specs
(``dsdoctor.specs``: the check, lint, explain, estimate, smoke and multi-node modules that emit them).

Names are a public contract: never rename or reuse one. Codes are stable too.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Dict, Iterator, List, Mapping


@dataclass(frozen=True)
class RuleInfo:
    code: str
    summary: str


class Catalog(Mapping[str, RuleInfo]):
    """name -> :class:`RuleInfo`, read from ``specs.FAMILIES`` one family at a time: a lookup reads families until
    one has the name, first those whose module is imported already (the running command's: ``check`` finds its
    names without importing lint's rules, ``lint`` without importing check's probes); iterating reads them all."""

    def __init__(self) -> None:
        self._got: Dict[str, RuleInfo] = {}
        self._unread: List[str] = []
        self._started = False

    def _next(self) -> bool:
        from .specs import FAMILIES

        if not self._started:
            self._unread, self._started = [m for m, _ in FAMILIES], True
        if not self._unread:
            return False
        module = next((m for m in self._unread if m in sys.modules), self._unread[0])
        self._unread.remove(module)
        for s in dict(FAMILIES)[module]():
            info = RuleInfo(s.code, s.summary)
            if self._got.setdefault(s.name, info) != info:
                raise ValueError(f"{s.name}: two codes or summaries ({self._got[s.name]} and {info})")
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
