"""Every finding name dsdoctor can emit, with its short code and one-line summary: the names table
(:mod:`dsdoctor.names`) for the names and codes, the owning spec (``dsdoctor.all_specs``) for the summary.

Names are a public contract: never rename or reuse one. Codes are stable too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, Mapping

from . import names


@dataclass(frozen=True)
class RuleInfo:
    code: str
    summary: str


class Catalog(Mapping[str, RuleInfo]):
    """name -> :class:`RuleInfo`; a lookup imports only the family that owns the name (``names.owner``), so
    ``check`` finds its names without importing lint's rules and ``lint`` without importing check's probes."""

    def __init__(self) -> None:
        self._got: Dict[str, RuleInfo] = {}
        self._read: Dict[str, bool] = {}

    def _read_family(self, owner: str) -> None:
        from .all_specs import FAMILIES

        fam = FAMILIES[owner]
        if self._read.get(fam.__name__):
            return
        self._read[fam.__name__] = True
        for s in fam():
            info = RuleInfo(s.code, s.summary)
            if self._got.setdefault(s.name, info) != info:
                raise ValueError(f"{s.name}: two specs ({self._got[s.name]} and {info})")

    def __getitem__(self, name: str) -> RuleInfo:
        if name not in names.CODES:
            raise KeyError(name)
        if name not in self._got:
            self._read_family(names.owner(name))
        return self._got[name]

    def __iter__(self) -> Iterator[str]:
        return iter(names.CODES)

    def __len__(self) -> int:
        return len(names.CODES)


RULES: Mapping[str, RuleInfo] = Catalog()

